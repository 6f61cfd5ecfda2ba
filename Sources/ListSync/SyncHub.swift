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
    /// Per loaded list: sessions open and reads in progress (a list in use is never unloaded).
    var users: [String: Int] = [:]
    /// Per loaded list: uses begun so far, so an unload notices a use that came and went while
    /// it waited for the list's appends.
    var uses: [String: Int] = [:]
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

  /// Whether `name` is a list name: 1 to 128 of `A-Z a-z 0-9 . _ -`, and not `.` or `..`.
  public static func isValidListName(_ name: String) -> Bool {
    let bytes = name.utf8
    // `.` and `..` name directories wherever a list name becomes a path segment.
    guard (1...128).contains(bytes.count), name != ".", name != ".." else { return false }
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

  /// The hosted list named `list`, loaded (lazily) if it is not, counted as in use until
  /// ``release(_:)``.
  func acquire(_ list: String) throws(SyncHubError) -> _HostedList {
    guard Self.isValidListName(list) else { throw .invalidListName(list) }
    return try state.withLock { state throws(SyncHubError) in
      guard !state.shuttingDown else { throw .shuttingDown }
      state.users[list, default: 0] += 1
      state.uses[list, default: 0] += 1
      if let hosted = state.lists[list] { return hosted }
      let hosted = _HostedList(name: list, storage: storage, configuration: configuration, observer: observer)
      state.lists[list] = hosted
      return hosted
    }
  }

  /// Ends a use begun by ``acquire(_:)``; the last one schedules the list's unloading.
  func release(_ list: String) {
    let unused = state.withLock { state -> Bool in
      let users = state.users[list, default: 1] - 1
      state.users[list] = users
      return users == 0
    }
    guard unused, let timeout = configuration.idleListTimeout else { return }
    Task { [weak self] in
      try? await Task.sleep(for: timeout)
      await self?.unloadIfUnused(list)
    }
  }

  /// Lets an unused list go once its appends in flight have landed, unless it was used meanwhile.
  func unloadIfUnused(_ list: String) async {
    let candidate = state.withLock { state -> (_HostedList, Int)? in
      guard !state.shuttingDown, state.users[list, default: 0] == 0, let hosted = state.lists[list] else { return nil }
      return (hosted, state.uses[list, default: 0])
    }
    guard let (hosted, uses) = candidate else { return }
    await hosted.idle()
    let unloaded = state.withLock { state -> Bool in
      guard state.users[list, default: 0] == 0, state.uses[list, default: 0] == uses, state.lists[list] === hosted else {
        return false
      }
      state.lists[list] = nil
      state.users[list] = nil
      state.uses[list] = nil
      return true
    }
    if unloaded { observer?.listUnloaded(list: list) }
  }

  /// How many lists are loaded in memory.
  public var loadedListCount: Int { state.withLock { $0.lists.count } }

  /// Opens a session for one connection to `list`, whose access the caller has authorized.
  ///
  /// - Parameters:
  ///   - owner: a stable name of the session's token (``SyncAccessPolicy/owner(of:)``): new
  ///     commits under a replica identity are accepted only from the owner that pushed under it
  ///     first. Nil binds nothing (a hub without tokens).
  ///   - peer: who is connected (an address), named in the observer's refusals; nil names no one.
  ///   - send: delivers a frame to the socket; called from one task, in order.
  ///   - close: closes the socket from the server's side (a client too far behind: 1008; shutdown:
  ///     1001); nil when the glue does not need it.
  /// - Throws: ``SyncHubError/invalidListName(_:)``, ``SyncHubError/notHosted(list:)`` for a
  ///   read-only session of a list that does not exist, ``SyncHubError/shuttingDown``.
  public func openSession(
    list: String, access: SyncAccess, owner: String? = nil, peer: String? = nil,
    send: @escaping @Sendable ([UInt8]) async -> Void,
    close: (@Sendable (UInt16, String) async -> Void)? = nil
  ) async throws(SyncHubError) -> SyncSession {
    let hosted = try acquire(list)
    do {
      if access == .read {
        let exists: Bool
        do { exists = try await hosted.exists } catch { throw SyncHubError.storage(error) }
        guard exists else { throw SyncHubError.notHosted(list: list) }
      }
      return try state.withLock { state throws(SyncHubError) in
        guard !state.shuttingDown else { throw .shuttingDown }
        let id = state.nextSession
        state.nextSession += 1
        let session = SyncSession(
          list: list, access: access, owner: owner, peer: peer, id: id, hosted: hosted, configuration: configuration,
          observer: observer, send: send,
          close: close,
          release: { [weak self] id in
            guard let self, self.state.withLock({ $0.sessions.removeValue(forKey: id) }) != nil else { return }
            self.release(list)
          })
        state.sessions[id] = session
        return session
      }
    } catch let error as SyncHubError {
      release(list)
      throw error
    } catch {
      release(list)
      throw .storage(.damaged(list: list, reason: "\(error)"))
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
    // All at once: each may wait a moment for its socket, and a hundred must not add up.
    await withTaskGroup(of: Void.self) { group in
      for session in sessions { group.addTask { await session.shut() } }
    }
    for list in lists { _ = await list.closeAll() }
    try? await storage.close()
    external?.cancel()
  }
}
