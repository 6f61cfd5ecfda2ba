import Synchronization

/// The clock a generated journal's versions are stamped with: the workload advances it by an
/// app's pause between commits (a few seconds), so timestamps cost in the file what an app's do
/// and the file does not depend on how fast the machine generated it.
final class SyntheticClock: Sendable {
  private let current: Mutex<Double>

  /// A clock at `start` seconds since 1970.
  init(start: Double) { current = Mutex(start) }

  var now: Double { current.withLock { $0 } }

  func advance(by seconds: Double) { current.withLock { $0 += seconds } }
}
