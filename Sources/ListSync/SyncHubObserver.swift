/// Receives the hub's events, for logs and metrics (the server maps them to swift-log and
/// swift-metrics). Every method has an empty default; calls come from any task, keep them quick.
///
/// ```swift
/// struct Metrics: SyncHubObserver {
///   func commitsStored(list: String, count: Int, pushes: Int) { commitCounter.increment(by: count) }
/// }
/// let hub = SyncHub(storage: storage, observer: Metrics())
/// ```
public protocol SyncHubObserver: Sendable {
  /// A session opened on `list` (`sessions`: how many the list has now).
  func sessionOpened(list: String, access: SyncAccess, sessions: Int)
  /// A session of `list` closed.
  func sessionClosed(list: String, sessions: Int)
  /// `count` commits were stored durably in `list` by one group commit of `pushes` pushes (empty
  /// pushes, which clients use as barriers, not counted).
  func commitsStored(list: String, count: Int, pushes: Int)
  /// Seconds from a push's arrival until its commits were queued to the other sessions.
  func fanOutLag(list: String, seconds: Double)
  /// A request or frame of `list` was refused (a read-only push, a malformed frame, …).
  func refused(list: String, code: SyncErrorCode, reason: String)
  /// The same, with the session's peer (``SyncHub/openSession(list:access:owner:peer:send:close:)``);
  /// by default it calls ``refused(list:code:reason:)``.
  func refused(list: String, peer: String?, code: SyncErrorCode, reason: String)
  /// A session fell too far behind and was disconnected.
  func sessionDropped(list: String, queuedFrames: Int)
  /// The same, with the session's peer; by default it calls ``sessionDropped(list:queuedFrames:)``.
  func sessionDropped(list: String, peer: String?, queuedFrames: Int)
  /// The storage failed.
  func storageFailed(list: String, error: SyncStorageError)
  /// `list` had no session and no read for ``SyncHubConfiguration/idleListTimeout`` and left
  /// memory; its next use loads it from storage again.
  func listUnloaded(list: String)
}

extension SyncHubObserver {
  public func sessionOpened(list: String, access: SyncAccess, sessions: Int) {}
  public func sessionClosed(list: String, sessions: Int) {}
  public func commitsStored(list: String, count: Int, pushes: Int) {}
  public func fanOutLag(list: String, seconds: Double) {}
  public func refused(list: String, code: SyncErrorCode, reason: String) {}
  public func refused(list: String, peer: String?, code: SyncErrorCode, reason: String) {
    refused(list: list, code: code, reason: reason)
  }
  public func sessionDropped(list: String, queuedFrames: Int) {}
  public func sessionDropped(list: String, peer: String?, queuedFrames: Int) {
    sessionDropped(list: list, queuedFrames: queuedFrames)
  }
  public func storageFailed(list: String, error: SyncStorageError) {}
  public func listUnloaded(list: String) {}
}
