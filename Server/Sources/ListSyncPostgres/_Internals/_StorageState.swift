import ListSync

/// What a ``PostgresSyncStorage`` keeps between calls, behind its lock.
struct _StorageState: Sendable {
  var closed = false
  /// The schema check, shared by every call until it succeeds; dropped after a failure so the
  /// next call tries again (the database may have been down).
  var schema: Task<Void, any Error>?
  /// `externalAppends()` streams, by a number of their own.
  var subscribers: [Int: AsyncStream<SyncAppendNotice>.Continuation] = [:]
  var nextSubscriber = 0
  /// The highest position of each list this instance has stored or been told of: after the
  /// listening connection comes back, a list past it is announced (its notices were missed).
  var known: [String: UInt64] = [:]
  /// `run()` calls waiting for `close()`.
  var closeWaiters: [CheckedContinuation<Void, Never>] = []

  /// Records `position` of `list`; whether it is news.
  mutating func learn(_ list: String, position: UInt64) -> Bool {
    guard position > known[list, default: 0] else { return false }
    known[list] = position
    return true
  }
}
