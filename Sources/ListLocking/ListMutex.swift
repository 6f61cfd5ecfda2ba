#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock: `Synchronization.Mutex`'s `withLock`, on every OS the package supports
/// (`Mutex` needs iOS 18 / macOS 15; this needs what `os_unfair_lock` and `pthread_mutex` need).
///
/// ```swift
/// let count = ListMutex(0)
/// count.withLock { $0 += 1 }
/// let now = count.withLock { $0 }   // 1
/// ```
/// - Complexity: O(1) plus `body`; uncontended, one lock and one unlock.
public final class ListMutex<Value: ~Copyable>: @unchecked Sendable {
  /// Touched only between `lock.lock()` and `lock.unlock()`.
  @usableFromInline var value: Value
  @usableFromInline let lock = _PlatformLock()

  /// A lock holding `value`.
  @inlinable
  public init(_ value: consuming Value) { self.value = value }

  /// Runs `body` on the value with the lock held; it must not call back into the same lock.
  @inlinable
  public func withLock<Result: ~Copyable, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// The OS lock behind ``ListMutex``, at a stable address (neither lock may move once used).
public final class _PlatformLock: @unchecked Sendable {
  #if canImport(os)
  @usableFromInline let pointer: UnsafeMutablePointer<os_unfair_lock_s>
  #else
  @usableFromInline let pointer: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  @inlinable
  public init() {
    pointer = .allocate(capacity: 1)
    #if canImport(os)
    pointer.initialize(to: os_unfair_lock_s())
    #else
    pointer.initialize(to: pthread_mutex_t())
    pthread_mutex_init(pointer, nil)
    #endif
  }

  deinit {
    #if !canImport(os)
    pthread_mutex_destroy(pointer)
    #endif
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  @inlinable
  public func lock() {
    #if canImport(os)
    os_unfair_lock_lock(pointer)
    #else
    pthread_mutex_lock(pointer)
    #endif
  }

  @inlinable
  public func unlock() {
    #if canImport(os)
    os_unfair_lock_unlock(pointer)
    #else
    pthread_mutex_unlock(pointer)
    #endif
  }
}
