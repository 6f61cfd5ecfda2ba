import ListHistory
import ListReplica
import ListLocking

/// The sync server's core, independent of HTTP: the lists it hosts, their sessions, group
/// commit, fan-out, access and limits, and the read endpoints' JSON. The server glue
/// (`Server/`, Hummingbird) only moves frames and requests in and out.
///
/// A push is validated (the batch's checksum, list and commits), its commits are stored with
/// the other pushes that arrived while an append was in flight (one fsync or transaction for
/// all), acknowledged once durable, and queued to every other session of the list. The hub
/// never merges: clients do.
///
/// ```swift
/// let hub = SyncHub(storage: try SyncFileStorage(directory: "data"))
/// switch hub.authorize(token: bearer, list: "groceries") {
/// case .read, .write: …        // upgrade, then hub.openSession(list:access:send:)
/// case .unauthenticated: …     // 401
/// case .forbidden: …           // 403
/// }
/// ```
/// - Complexity: a push costs decoding and re-encoding its commits, a storage append shared
///   with its group, and one encoded frame per other session; memory per list is a few words
///   per commit (identities and digests).
public final class SyncHub: Sendable {
  public let storage: any SyncStorage
  public let configuration: SyncHubConfiguration
  let observer: (any SyncHubObserver)?
  let state = ListMutex(State())

  struct State {
    var lists: [String: _HostedList] = [:]
    var nextSession = 1
    var shuttingDown = false
    var sessions: [Int: SyncSession] = [:]
    var external: Task<Void, Never>?
  }

  public init(
    storage: any SyncStorage, configuration: SyncHubConfiguration = SyncHubConfiguration(),
    observer: (any SyncHubObserver)? = nil
  ) {
    self.storage = storage
    self.configuration = configuration
    self.observer = observer
    let notices = storage.externalAppends()
    let task = Task { [weak self] in
      for await notice in notices {
        guard let self else { return }
        guard let hosted = self.state.withLock({ $0.lists[notice.list] }) else { continue }
        await hosted.externalAppend(upTo: notice.lastPosition)
      }
    }
    state.withLock { $0.external = task }
  }

  /// How many sessions are open (the server's "connected clients" metric).
  public var sessionCount: Int { state.withLock { $0.sessions.count } }

  /// Whether `name` is a list name: 1 to 128 of `A-Z a-z 0-9 . _ -`.
  public static func isValidListName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard (1...128).contains(bytes.count) else { return false }
    return bytes.allSatisfy { byte in
      (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2E
        || byte == 0x5F || byte == 0x2D
    }
  }

  /// The access `token` grants to `list` under the configured policy.
  public func authorize(token: String?, list: String) -> SyncAuthorization {
    configuration.accessPolicy.authorize(token: token, list: list)
  }

  /// The names of the lists `token` may read.
  ///
  /// - Throws: ``SyncHubError/unauthenticated`` for no or an unknown token.
  public func lists(visibleTo token: String?) async throws(SyncHubError) -> [String] {
    guard let visible = configuration.accessPolicy.lists(visibleTo: token) else { throw .unauthenticated }
    do { return try await storage.lists().filter { visible.contains($0) } } catch { throw .storage(error) }
  }

  func hosted(_ list: String) throws(SyncHubError) -> _HostedList {
    guard Self.isValidListName(list) else { throw .invalidListName(list) }
    return try state.withLock { state throws(SyncHubError) in
      guard !state.shuttingDown else { throw .shuttingDown }
      if let hosted = state.lists[list] { return hosted }
      let hosted = _HostedList(name: list, storage: storage, configuration: configuration, observer: observer)
      state.lists[list] = hosted
      return hosted
    }
  }

  /// Opens a session for one connection to `list`, whose access the caller has authorized.
  ///
  /// - Parameters:
  ///   - send: delivers a frame to the socket; called from one task, in order.
  ///   - close: closes the socket from the server's side (a client too far behind: 1008; shutdown:
  ///     1001); nil when the glue does not need it.
  /// - Throws: ``SyncHubError/invalidListName(_:)``, ``SyncHubError/notHosted(list:)`` for a
  ///   read-only session of a list that does not exist, ``SyncHubError/shuttingDown``.
  public func openSession(
    list: String, access: SyncAccess, send: @escaping @Sendable ([UInt8]) async -> Void,
    close: (@Sendable (UInt16, String) async -> Void)? = nil
  ) async throws(SyncHubError) -> SyncSession {
    let hosted = try hosted(list)
    if access == .read {
      let exists: Bool
      do { exists = try await hosted.exists } catch { throw .storage(error) }
      guard exists else { throw .notHosted(list: list) }
    }
    return try state.withLock { state throws(SyncHubError) in
      guard !state.shuttingDown else { throw .shuttingDown }
      let id = state.nextSession
      state.nextSession += 1
      let session = SyncSession(
        list: list, access: access, id: id, hosted: hosted, configuration: configuration, observer: observer, send: send,
        close: close, release: { [weak self] id in _ = self?.state.withLock { $0.sessions.removeValue(forKey: id) } })
      state.sessions[id] = session
      return session
    }
  }

  /// Stops accepting sessions, waits for appends in flight, closes every session (1001) and the
  /// storage.
  public func shutdown() async {
    let (lists, sessions, external) = state.withLock { state in
      state.shuttingDown = true
      let lists = state.lists.map(\.value)
      let sessions = state.sessions.map(\.value)
      state.sessions = [:]
      return (lists, sessions, state.external)
    }
    for list in lists { await list.idle() }
    for session in sessions { await session.shut() }
    for list in lists { _ = await list.closeAll() }
    try? await storage.close()
    external?.cancel()
  }
}
