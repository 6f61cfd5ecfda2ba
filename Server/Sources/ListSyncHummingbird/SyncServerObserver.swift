import ListSync
import Logging
import Metrics
import NIOConcurrencyHelpers

/// Turns the hub's events and the server's refusals into swift-log lines (with `list`, `peer`
/// and `reason` metadata) and swift-metrics instruments.
///
/// Instruments (bootstrap a metrics backend to export them; without one they cost nothing):
/// - `listsync_connected_clients` (gauge): open sync sessions, all lists together.
/// - `listsync_commits_stored_total` (counter, `list`-free): commits made durable; its rate is
///   commits/s.
/// - `listsync_pushes_total` (counter): pushes acknowledged.
/// - `listsync_fanout_lag_seconds` (timer): from a commit's append to its send to another session.
/// - `listsync_refused_total` (counter, dimension `reason`): refused requests and messages.
/// - `listsync_sessions_dropped_total` (counter): sessions disconnected for falling behind.
/// - `listsync_storage_failures_total` (counter).
/// - `listsync_lists_unloaded_total` (counter): idle lists that left memory.
///
/// ```swift
/// let observer = SyncServerObserver(logger: logger)
/// let hub = SyncHub(storage: storage, configuration: configuration, observer: observer)
/// ```
///
/// - Complexity: O(1) per event.
public final class SyncServerObserver: SyncHubObserver, Sendable {
  public let logger: Logger
  private let connected: Gauge
  private let stored: Counter
  private let pushes: Counter
  private let lag: Metrics.Timer
  private let dropped: Counter
  private let storageFailures: Counter
  private let sessions: Counter
  private let unloaded: Counter
  private let prefix: String
  private let open = NIOLockedValueBox(0)

  public init(logger: Logger, metricsPrefix: String = "listsync") {
    self.logger = logger
    self.prefix = metricsPrefix
    connected = Gauge(label: "\(metricsPrefix)_connected_clients")
    stored = Counter(label: "\(metricsPrefix)_commits_stored_total")
    pushes = Counter(label: "\(metricsPrefix)_pushes_total")
    lag = Metrics.Timer(label: "\(metricsPrefix)_fanout_lag_seconds", preferredDisplayUnit: .milliseconds)
    dropped = Counter(label: "\(metricsPrefix)_sessions_dropped_total")
    storageFailures = Counter(label: "\(metricsPrefix)_storage_failures_total")
    sessions = Counter(label: "\(metricsPrefix)_sessions_opened_total")
    unloaded = Counter(label: "\(metricsPrefix)_lists_unloaded_total")
  }

  public func sessionOpened(list: String, access: SyncAccess, sessions count: Int) {
    sessions.increment()
    connected.record(open.withLockedValue { $0 += 1; return $0 })
    logger.debug("session opened", metadata: ["list": "\(list)", "access": "\(access.rawValue)", "sessions": "\(count)"])
  }

  public func sessionClosed(list: String, sessions count: Int) {
    connected.record(open.withLockedValue { $0 -= 1; return $0 })
    logger.debug("session closed", metadata: ["list": "\(list)", "sessions": "\(count)"])
  }

  public func commitsStored(list: String, count: Int, pushes: Int) {
    stored.increment(by: count)
    self.pushes.increment(by: pushes)
    logger.trace("commits stored", metadata: ["list": "\(list)", "commits": "\(count)", "pushes": "\(pushes)"])
  }

  public func fanOutLag(list: String, seconds: Double) {
    lag.recordNanoseconds(Int64(seconds * 1e9))
  }

  public func refused(list: String, code: SyncErrorCode, reason: String) {
    refused(list: list, peer: nil, code: code, reason: reason)
  }

  public func refused(list: String, peer: String?, code: SyncErrorCode, reason: String) {
    refused(list: list, reason: "\(code)")
    var metadata: Logger.Metadata = ["list": "\(list)", "code": "\(code)", "reason": "\(reason)"]
    if let peer { metadata["peer"] = "\(peer)" }
    logger.notice("message refused", metadata: metadata)
  }

  public func sessionDropped(list: String, queuedFrames: Int) {
    sessionDropped(list: list, peer: nil, queuedFrames: queuedFrames)
  }

  public func sessionDropped(list: String, peer: String?, queuedFrames: Int) {
    dropped.increment()
    var metadata: Logger.Metadata = ["list": "\(list)", "queued": "\(queuedFrames)"]
    if let peer { metadata["peer"] = "\(peer)" }
    logger.warning("session dropped: it fell too far behind", metadata: metadata)
  }

  public func storageFailed(list: String, error: SyncStorageError) {
    storageFailures.increment()
    logger.error("storage failed", metadata: ["list": "\(list)", "reason": "\(error)"])
  }

  public func listUnloaded(list: String) {
    unloaded.increment()
    logger.debug("idle list unloaded", metadata: ["list": "\(list)"])
  }

  /// Counts a refusal (the server logs HTTP refusals itself, with the peer).
  public func refused(list: String?, reason: String) {
    Counter(label: "\(prefix)_refused_total", dimensions: [("reason", reason)]).increment()
  }
}
