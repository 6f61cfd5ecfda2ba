import ListLocking

/// A deterministic clock that advances 1.5 ms per reading.
final class ClockBox: Sendable {
  private let now = ListMutex<Double>(1_700_000_000)
  func tick() -> Double { now.withLock { $0 += 0.0015; return $0 } }
}
