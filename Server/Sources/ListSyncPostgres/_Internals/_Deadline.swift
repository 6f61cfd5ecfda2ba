import ListSync
import Synchronization

/// Runs an operation with a time limit that holds even when the operation never returns.
///
/// A query in flight on a connection the server closes (a restart) can be left unanswered by
/// the driver; an append must then fail rather than hang the hub. The operation runs in a task
/// of its own; if the limit passes first, the caller gets the error and the task is left to
/// end on its own (postgres-nio's queries don't observe cancellation). An append that timed out may still commit later: appends are
/// idempotent, so the retry finds it as a duplicate.
enum _Deadline {
  static func run<T: Sendable>(
    _ limit: Duration, _ what: @autoclosure () -> String, _ operation: @escaping @Sendable () async throws(SyncStorageError) -> T
  ) async throws(SyncStorageError) -> T {
    let description = what()
    let result: Result<T, SyncStorageError> = await withCheckedContinuation { continuation in
      let once = _Once(continuation)
      let timer = Task {
        try? await Task.sleep(for: limit)
        guard !Task.isCancelled, let waiting = once.take() else { return }
        waiting.resume(returning: .failure(.backend("\(description): no answer from PostgreSQL within \(limit)")))
      }
      Task {
        let result: Result<T, SyncStorageError>
        do throws(SyncStorageError) { result = .success(try await operation()) } catch { result = .failure(error) }
        timer.cancel()
        once.take()?.resume(returning: result)
      }
    }
    return try result.get()
  }
}

/// A continuation that the first of two tasks takes.
final class _Once<Value: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<Value, Never>?>

  init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = Mutex(continuation) }

  func take() -> CheckedContinuation<Value, Never>? { continuation.withLock { $0.take() } }
}
