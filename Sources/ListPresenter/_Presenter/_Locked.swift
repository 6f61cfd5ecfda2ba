import Foundation

/// A value behind an `NSLock`: what the presenter's mailbox needs from a lock, on every platform
/// the package supports (`Synchronization.Mutex` would raise this target's floor to iOS 18).
@usableFromInline
final class _Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
