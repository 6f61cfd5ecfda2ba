import ListReplica
import ListSync
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// A ``SyncStorage`` in PostgreSQL: every list, commit and replica owner in tables, so several
/// server instances can serve the same lists.
///
/// Each append is one transaction that locks the list's row, so positions are assigned in one
/// serial order across all instances, and a commit becomes visible only after every commit with
/// a lower position. Instances tell each other about appends with `NOTIFY listjournal_appends`;
/// ``externalAppends()`` listens on a connection of its own and, after the database comes back
/// from a restart, announces every list that moved meanwhile.
///
/// The storage is a swift-service-lifecycle `Service`: ``run()`` must be running for it to reach
/// the database (it runs the connection pool unless the pool is run elsewhere) and to hear
/// other instances. Put it *before* the services that use it in a `ServiceGroup`, so a graceful
/// shutdown stops it last.
///
/// ```swift
/// let storage = try PostgresSyncStorage(url: "postgres://sync:secret@db.local:5432/lists")
/// let hub = SyncHub(storage: storage)
/// let group = ServiceGroup(services: [storage, server], logger: logger)
/// try await group.run()
/// ```
///
/// The schema (tables `lists`, `commits`, `replica_owners` and `listjournal_schema`) is created
/// or migrated on first use, under an advisory lock so instances starting together don't race.
///
/// - Complexity: an append of k commits is one transaction of five statements, O(k log n) in the
///   database for a list of n commits; reads by position are an index range scan.
public final class PostgresSyncStorage: SyncStorage, Service {
  /// The channel appends are announced on.
  public static let notificationChannel = "listjournal_appends"
  /// The newest schema this version creates and understands.
  public static let schemaVersion = 2

  /// This instance's identifier in notices: an instance ignores the notices it sent itself.
  public let instanceID: UInt64
  /// How long one call may wait for the database before it fails with
  /// ``SyncStorageError/backend(_:)``: a query in flight when the server goes away may never be
  /// answered otherwise.
  public let operationTimeout: Duration
  let client: PostgresClient
  let ownsClient: Bool
  let logger: Logger
  let state = Mutex(_StorageState())

  /// A storage on an existing, caller-run connection pool (`client.run()` running elsewhere).
  ///
  /// ``run()`` must still run, to listen for other instances' appends.
  public init(
    client: PostgresClient, instanceID: UInt64 = .random(in: 1...UInt64.max), operationTimeout: Duration = .seconds(30),
    logger: Logger? = nil
  ) {
    self.operationTimeout = operationTimeout
    self.client = client
    self.ownsClient = false
    self.instanceID = instanceID
    self.logger = logger ?? Logger(label: "listjournal.postgres")
  }

  /// A storage with a connection pool of its own, run by ``run()``.
  public init(
    configuration: PostgresClient.Configuration, instanceID: UInt64 = .random(in: 1...UInt64.max),
    operationTimeout: Duration = .seconds(30), logger: Logger? = nil
  ) {
    self.operationTimeout = operationTimeout
    let logger = logger ?? Logger(label: "listjournal.postgres")
    self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    self.ownsClient = true
    self.instanceID = instanceID
    self.logger = logger
  }

  /// A storage with a connection pool of its own for a `postgres://` URL (see
  /// ``configuration(url:)``).
  public convenience init(
    url: String, instanceID: UInt64 = .random(in: 1...UInt64.max), operationTimeout: Duration = .seconds(30),
    logger: Logger? = nil
  ) throws(PostgresURLError) {
    self.init(
      configuration: try Self.configuration(url: url), instanceID: instanceID, operationTimeout: operationTimeout,
      logger: logger)
  }

  /// Runs the connection pool (when the storage owns it) and the listener for other instances'
  /// appends, until ``close()``, a graceful shutdown (which closes the storage) or cancellation.
  public func run() async throws {
    await withGracefulShutdownHandler {
      await withTaskGroup(of: Void.self) { group in
        if ownsClient { group.addTask { await self.client.run() } }
        group.addTask { await self.listenForExternalAppends() }
        group.addTask { await self.waitUntilClosed() }
        // Whichever ends first (closed, cancelled, the pool stopped) ends the rest.
        await group.next()
        group.cancelAll()
      }
    } onGracefulShutdown: {
      self.markClosed()
    }
    markClosed()
  }

  public func externalAppends() -> AsyncStream<SyncAppendNotice> {
    let (stream, continuation) = AsyncStream<SyncAppendNotice>.makeStream(bufferingPolicy: .unbounded)
    let id: Int? = state.withLock { state in
      guard !state.closed else { return nil }
      let id = state.nextSubscriber
      state.nextSubscriber += 1
      state.subscribers[id] = continuation
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Refuses later calls, ends ``externalAppends()`` streams and lets ``run()`` return. Appends
  /// in flight finish (each is its own transaction).
  public func close() async throws(SyncStorageError) {
    markClosed()
  }

  func markClosed() {
    let (subscribers, waiters) = state.withLock { state in
      guard !state.closed else { return ([AsyncStream<SyncAppendNotice>.Continuation](), [CheckedContinuation<Void, Never>]()) }
      state.closed = true
      let taken = (Array(state.subscribers.values), state.closeWaiters)
      state.subscribers = [:]
      state.closeWaiters = []
      return taken
    }
    for subscriber in subscribers { subscriber.finish() }
    for waiter in waiters { waiter.resume() }
  }

  func waitUntilClosed() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let closed = state.withLock { state in
        if !state.closed { state.closeWaiters.append(continuation) }
        return state.closed
      }
      if closed { continuation.resume() }
    }
  }

  /// Throws ``SyncStorageError/closed`` after ``close()``, else makes sure the schema is there.
  func ready() async throws(SyncStorageError) {
    let task: Task<Void, any Error> = try state.withLock { (state) throws(SyncStorageError) in
      guard !state.closed else { throw .closed }
      if let task = state.schema { return task }
      let task = Task {
        try await _Deadline.run(self.operationTimeout, "preparing the schema") { () throws(SyncStorageError) in
          do { try await self.migrate() } catch { throw _BackendError.storageError(error, doing: "preparing the schema") }
        }
      }
      state.schema = task
      return task
    }
    do {
      try await task.value
    } catch {
      state.withLock { state in
        if state.schema == task { state.schema = nil }
      }
      throw _BackendError.storageError(error, doing: "preparing the schema")
    }
  }

  /// Hands `notice` to every ``externalAppends()`` stream unless it is old news.
  func announce(_ notice: SyncAppendNotice) {
    let subscribers = state.withLock { state in
      state.learn(notice.list, position: notice.lastPosition) ? Array(state.subscribers.values) : []
    }
    for subscriber in subscribers { subscriber.yield(notice) }
  }
}
