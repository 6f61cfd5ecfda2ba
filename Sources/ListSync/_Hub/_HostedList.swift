import ListHistory
import ListReplica

typealias _GenericCommit = ReplicaCommit<JournalValueElement, JournalValueElement>
typealias _GenericReplica = ListReplica<JournalValueElement, JournalValueElement>

/// One list the hub hosts: what it needs in memory to check pushes and serve sessions (the
/// genesis, the identities held, the vector, the last position), its sessions, the group commit
/// and the read model. An actor: pushes, hellos and fan-out of one list are serialized, so every
/// session receives the list's commits in storage order.
actor _HostedList {
  struct Push {
    var commits: [(stored: SyncStoredCommit, commit: _GenericCommit)]
    var session: SyncSession
    var request: UInt64
    var arrived: ContinuousClock.Instant
    /// Fulfilled once the push is answered (its session bounds the pushes it has in flight).
    var ticket: _Ticket<Void>
  }

  /// Where a session's catch-up stands.
  struct CatchUp {
    /// The hello's vector: the commits it covers are not sent.
    var vector: ReplicaVersionVector
    /// Every position up to this one has been sent (or skipped).
    var after: UInt64 = 0
    /// Commits the session pushed since its hello: it holds them, so catch-up skips them.
    var pushed: Set<ReplicaCommitID> = []
    /// Answers to its pushes, held until catch-up is done so an ack stays a barrier (every
    /// commit stored before it arrives first); their tickets bound its pushes meanwhile.
    var answers: [(message: SyncMessage, ticket: _Ticket<Void>)] = []
  }

  let name: String
  let storage: any SyncStorage
  let configuration: SyncHubConfiguration
  let observer: (any SyncHubObserver)?

  var loaded = false
  var genesis: SyncListGenesis?
  /// A digest of each held commit's bytes, to tell a duplicate from a conflicting twin.
  var held: [ReplicaCommitID: Int] = [:]
  var vector = ReplicaVersionVector()
  /// Sequences held beyond the vector's contiguous prefix, per replica.
  var gaps: [ReplicaID: Set<UInt64>] = [:]
  var lastPosition: UInt64 = 0
  /// The highest Lamport clock held: a pushed commit's clock may run ahead of it by a bounded lead.
  var highestClock: UInt64 = 0
  /// The owner each replica identity is bound to: commits under it come from that owner only.
  var owners: [ReplicaID: String] = [:]
  /// Every position up to this one has been seen (for other instances' appends).
  var externalCursor: UInt64 = 0
  var sessions: [Int: SyncSession] = [:]
  /// Sessions still receiving catch-up, which fan-out skips.
  var catchingUp: [Int: CatchUp] = [:]
  /// Per session that joined fan-out while other instances' commits below its catch-up's last
  /// position may not have been read back yet: that position (those commits reached it already).
  var liveFrom: [Int: UInt64] = [:]

  var pending: [Push] = []
  var appending = false
  var externalPending = false
  var idleWaiters: [_Ticket<Void>] = []

  var reader: _GenericReplica?
  var readerPosition: UInt64 = 0

  init(name: String, storage: any SyncStorage, configuration: SyncHubConfiguration, observer: (any SyncHubObserver)?) {
    self.name = name
    self.storage = storage
    self.configuration = configuration
    self.observer = observer
  }

  // MARK: Loading

  func load() async throws(SyncStorageError) {
    guard !loaded else { return }
    guard let genesis = try await storage.genesis(of: name) else { return }
    guard !loaded else { return }
    try await adopt(genesis)
  }

  private func adopt(_ genesis: SyncListGenesis) async throws(SyncStorageError) {
    let commits = try await storage.commits(of: name, after: 0, limit: Int.max)
    guard !loaded else { return }
    let owners = try await storage.owners(of: name)
    guard !loaded else { return }
    self.genesis = genesis
    self.owners = owners
    for commit in commits { hold(commit) }
    externalCursor = lastPosition
    loaded = true
  }

  var exists: Bool {
    get async throws(SyncStorageError) {
      try await load()
      return genesis != nil
    }
  }

  private func hold(_ commit: SyncStoredCommit) {
    held[commit.id] = commit.bytes.hashValue
    let replica = commit.id.replica
    if commit.id.sequence == vector[replica] + 1 {
      var next = commit.id.sequence
      if var waiting = gaps[replica] {
        while waiting.remove(next + 1) != nil { next += 1 }
        gaps[replica] = waiting.isEmpty ? nil : waiting
      }
      vector[replica] = next
    } else if commit.id.sequence > vector[replica] {
      gaps[replica, default: []].insert(commit.id.sequence)
    }
    lastPosition = max(lastPosition, commit.position)
    highestClock = max(highestClock, commit.lamportClock)
  }

  // MARK: Sessions

  func hello(session: SyncSession, vector clientVector: ReplicaVersionVector, genesis offered: SyncListGenesis?) async
    -> _HelloOutcome
  {
    do {
      try await load()
      if genesis == nil {
        guard session.access == .write else {
          return .refused(.notHosted, "no list named '\(name)'")
        }
        let proposed: SyncListGenesis
        if let offered {
          // A base no client could decode would make the list unusable for everyone after.
          do {
            _ = try ReplicaJournalLayout.decodeBase(offered.base, codec: HistoryCodec<JournalValueElement, JournalValueElement>.generic())
          } catch {
            return .refused(.malformed, "the hello's base state does not decode: \(error)")
          }
          proposed = offered
        } else {
          var generator = SystemRandomNumberGenerator()
          proposed = SyncListGenesis(listID: generator.next(), base: try _HostedList.emptyBase())
        }
        let created = try await storage.create(name, genesis: proposed)
        if genesis == nil { try await adopt(created) }
      }
    } catch let error as SyncStorageError {
      observer?.storageFailed(list: name, error: error)
      return .refused(.storage, "\(error)")
    } catch {
      return .refused(.storage, "\(error)")
    }
    guard let genesis else { return .refused(.storage, "the list could not be created") }
    if let offered, offered.listID != genesis.listID {
      return .refused(
        .differentList, "list '\(name)' is \(_hex(genesis.listID)), the client's replica is of list \(_hex(offered.listID))")
    }
    sessions[session.id] = session
    observer?.sessionOpened(list: name, access: session.access, sessions: sessions.count)
    // A new session's queue is empty, and an empty queue takes any frame.
    _ = session.queue.enqueue(SyncMessage.welcome(genesis: genesis, lastPosition: lastPosition, vector: vector).encoded())
    catchingUp[session.id] = CatchUp(vector: clientVector)
    Task { await self.catchUp(session) }
    return .welcomed
  }

  func remove(_ session: SyncSession) {
    endCatchUp(session.id)
    liveFrom[session.id] = nil
    guard sessions.removeValue(forKey: session.id) != nil else { return }
    observer?.sessionClosed(list: name, sessions: sessions.count)
  }

  /// Sends a session the stored commits its hello's vector does not cover, a page per frame,
  /// reading the next page only when its queue has room for it, so a joiner holds at most
  /// `maxQueuedBytes` whatever the list's size. Fan-out skips the session meanwhile: each page
  /// reads on to the list's last position, and once a read finds it there, with no suspension
  /// before, the session joins fan-out, so every commit arrives once, in storage order.
  private func catchUp(_ session: SyncSession) async {
    let queue = session.queue
    let frameBytes = max(1, configuration.maxCommitsFrameBytes)
    while true {
      guard await queue.waitForRoom(min(frameBytes, queue.byteLimit / 2)), var state = catchingUp[session.id] else {
        endCatchUp(session.id)
        return
      }
      let last = lastPosition
      guard state.after < last else {
        goLive(session)
        return
      }
      let page: [SyncStoredCommit]
      do {
        page = try await storage.commits(
          of: name, notCoveredBy: state.vector, after: state.after, through: last, limit: 4096,
          maxBytes: min(frameBytes, max(1, queue.room)))
      } catch {
        // A session that left meanwhile (a shutdown closing the storage) is no failure to report.
        guard catchingUp[session.id] != nil else { return }
        observer?.storageFailed(list: name, error: error)
        abortCatchUp(session, "catch-up: \(error)")
        return
      }
      guard catchingUp[session.id] != nil else { return }
      state.after = page.last?.position ?? last
      catchingUp[session.id]?.after = state.after
      // The client holds what it pushed since its hello.
      let fresh = page.filter { !(catchingUp[session.id]?.pushed.contains($0.id) ?? false) }
      guard !fresh.isEmpty else { continue }
      let frame: [UInt8]
      do { frame = try catchUpFrame(fresh) } catch {
        abortCatchUp(session, "catch-up: \(error)")
        return
      }
      // An encoded frame may run a little over its commits' bytes: it waits for room too.
      guard await queue.waitForRoom(frame.count), catchingUp[session.id] != nil, queue.enqueue(frame) else {
        endCatchUp(session.id)
        return
      }
    }
  }

  /// The session has every stored commit: it joins fan-out, and the answers held for it follow.
  private func goLive(_ session: SyncSession) {
    guard let state = catchingUp.removeValue(forKey: session.id) else { return }
    // Other instances' commits up to here came in catch-up; reading them back must not resend them.
    if externalCursor < lastPosition { liveFrom[session.id] = lastPosition }
    for (message, ticket) in state.answers {
      session.answer(message)
      ticket.fulfil(())
    }
  }

  /// Forgets a session's catch-up (it closed or was dropped), letting its held pushes go.
  private func endCatchUp(_ id: Int) {
    guard let state = catchingUp.removeValue(forKey: id) else { return }
    for (_, ticket) in state.answers { ticket.fulfil(()) }
  }

  private func abortCatchUp(_ session: SyncSession, _ reason: String) {
    endCatchUp(session.id)
    sessions[session.id] = nil
    Task { await session.abort(.storage, reason) }
  }

  /// One commits frame of a catch-up page (bounded by count and bytes when it was read).
  func catchUpFrame(_ commits: [SyncStoredCommit]) throws -> [UInt8] {
    guard let genesis else { throw SyncStorageError.unknownList(name) }
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var slice: [_GenericCommit] = []
    for commit in commits { slice += try codec.decodeReplicaCommits(commit.bytes) }
    return SyncMessage.commits(try ReplicaBatch(commits: slice, listID: genesis.listID, codec: .generic())).encoded()
  }

  static func emptyBase() throws -> [UInt8] {
    try ReplicaJournalLayout.encodeBase(
      ListSnapshot<JournalValueElement, JournalValueElement>(), codec: .generic())
  }

  var listID: UInt64? { genesis?.listID }

  // MARK: Group commit

  /// Queues a push for the next group commit; its ack or error is queued to its session, in
  /// order, once the group is durable and fanned out.
  func submit(
    _ commits: [(stored: SyncStoredCommit, commit: _GenericCommit)], session: SyncSession, request: UInt64,
    arrived: ContinuousClock.Instant
  ) -> _Ticket<Void> {
    let ticket = _Ticket<Void>()
    if catchingUp[session.id] != nil {
      for entry in commits { catchingUp[session.id]?.pushed.insert(entry.stored.id) }
    }
    pending.append(Push(commits: commits, session: session, request: request, arrived: arrived, ticket: ticket))
    if !appending {
      appending = true
      Task { await self.runGroups() }
    }
    return ticket
  }

  private func runGroups() async {
    while !pending.isEmpty || externalPending {
      if !pending.isEmpty {
        if configuration.groupCommitDelay > .zero { try? await Task.sleep(for: configuration.groupCommitDelay) }
        let group = pending
        pending = []
        await append(group)
      }
      if externalPending {
        externalPending = false
        await readExternal()
      }
    }
    appending = false
    let waiters = idleWaiters
    idleWaiters = []
    for waiter in waiters { waiter.fulfil(()) }
  }

  /// Waits until no append is in flight (shutdown).
  func idle() async {
    guard appending else { return }
    let ticket = _Ticket<Void>()
    idleWaiters.append(ticket)
    await ticket.wait()
  }

  private func append(_ group: [Push]) async {
    // Duplicates and conflicting twins are found here first, so storage sees only new commits
    // and one bad push does not fail its group.
    var accepted: [Push] = []
    var claimed: [ReplicaCommitID: Int] = [:]
    var order: [(stored: SyncStoredCommit, commit: _GenericCommit)] = []
    var freshIDs: [[ReplicaCommitID]] = []
    var bindings: [ReplicaID: String] = [:]
    pushes: for push in group {
      var fresh: [(stored: SyncStoredCommit, commit: _GenericCommit)] = []
      var local: [ReplicaCommitID: Int] = [:]
      var localBindings: [ReplicaID: String] = [:]
      for entry in push.commits {
        let digest = entry.stored.bytes.hashValue
        if let known = held[entry.stored.id] ?? claimed[entry.stored.id] ?? local[entry.stored.id] {
          guard known == digest else {
            refuse(push, .conflictingCommit, "list '\(name)' holds a different commit \(entry.stored.id)")
            continue pushes
          }
        } else {
          // A new commit's replica identity belongs to the first owner that pushed under it.
          if let owner = push.session.owner {
            let replica = entry.stored.id.replica
            if let bound = owners[replica] ?? bindings[replica] ?? localBindings[replica] {
              guard bound == owner else {
                refuse(
                  push, .notTheAuthor,
                  "commit \(entry.stored.id) is under replica \(replica), which another token pushed first; a token pushes new commits only under replicas it owns")
                continue pushes
              }
            } else {
              localBindings[replica] = owner
            }
          }
          local[entry.stored.id] = digest
          fresh.append(entry)
        }
      }
      bindings.merge(localBindings) { first, _ in first }
      for entry in fresh { claimed[entry.stored.id] = entry.stored.bytes.hashValue }
      order += fresh
      accepted.append(push)
      freshIDs.append(fresh.map(\.stored.id))
    }
    guard !accepted.isEmpty else { return }
    guard !order.isEmpty else {
      for push in accepted { answer(push, stored: 0, duplicates: push.commits.count) }
      return
    }
    if !bindings.isEmpty {
      // Bound durably before the commits land, so a restart cannot hand the identity to another.
      do { try await storage.bindOwners(bindings, of: name) } catch .boundToAnotherOwner(_, let replica) {
        // Another instance bound it first: retry push by push so only the push under it fails.
        if accepted.count > 1 {
          for push in accepted { await append([push]) }
          return
        }
        for push in accepted {
          refuse(
            push, .notTheAuthor,
            "a commit is under replica \(replica), which another token pushed first; a token pushes new commits only under replicas it owns")
        }
        return
      } catch {
        observer?.storageFailed(list: name, error: error)
        for push in accepted { refuse(push, .storage, "\(error)") }
        return
      }
      owners.merge(bindings) { first, _ in first }
    }
    let result: SyncAppendResult
    do {
      result = try await storage.append(order.map(\.stored), to: name)
    } catch .conflictingCommit where accepted.count > 1 {
      // Another instance stored a twin: retry push by push so only the push holding it fails.
      for push in accepted { await append([push]) }
      return
    } catch {
      observer?.storageFailed(list: name, error: error)
      let code: SyncErrorCode = if case .conflictingCommit = error { .conflictingCommit } else { .storage }
      for push in accepted { refuse(push, code, "\(error)") }
      // A failed append may still have stored some commits: read them back like another
      // instance's, so the other sessions receive them.
      if code == .storage { externalPending = true }
      return
    }
    let storedIDs = Set(result.stored.map(\.id))
    for commit in result.stored { hold(commit) }
    // Commits storage already held (another instance's) count as duplicates.
    observer?.commitsStored(list: name, count: result.stored.count, pushes: accepted.filter { !$0.commits.isEmpty }.count)
    let byID = Dictionary(
      order.map { ($0.stored.id, (commit: $0.commit, bytes: $0.stored.bytes.count)) }, uniquingKeysWith: { first, _ in first })
    fanOut(
      zip(accepted, freshIDs).map { push, ids in
        (push.session.id, ids.filter { storedIDs.contains($0) }.compactMap { byID[$0] })
      })
    // Acked after the fan-out is queued: an ack means the others' queues hold the commits.
    for (push, ids) in zip(accepted, freshIDs) {
      let stored = ids.filter { storedIDs.contains($0) }.count
      answer(push, stored: stored, duplicates: push.commits.count - stored)
    }
    let now = ContinuousClock.now
    for push in accepted { observer?.fanOutLag(list: name, seconds: (now - push.arrived).seconds) }
  }

  private func answer(_ push: Push, stored: Int, duplicates: Int) {
    deliver(.ack(request: push.request, stored: UInt64(stored), duplicates: UInt64(duplicates)), for: push)
  }

  private func refuse(_ push: Push, _ code: SyncErrorCode, _ message: String) {
    observer?.refused(list: name, peer: push.session.peer, code: code, reason: message)
    deliver(.error(request: push.request, code: code, message: message), for: push)
  }

  /// Answers a push the session refused itself, after its catch-up like every answer.
  func answer(_ session: SyncSession, _ message: SyncMessage) -> _Ticket<Void> {
    let ticket = _Ticket<Void>()
    if catchingUp[session.id] != nil {
      catchingUp[session.id]?.answers.append((message, ticket))
    } else {
      session.answer(message)
      ticket.fulfil(())
    }
    return ticket
  }

  private func deliver(_ message: SyncMessage, for push: Push) {
    guard catchingUp[push.session.id] == nil else {
      catchingUp[push.session.id]?.answers.append((message, push.ticket))
      return
    }
    push.session.answer(message)
    push.ticket.fulfil(())
  }

  /// Queues stored commits to every session but the one that pushed them. `segments` are in
  /// storage order, one per push (pusher nil: another instance's). A session that pushed
  /// nothing gets one frame of everything; a pusher gets the rest as the fewest nodes of a
  /// balanced tree over the segments that hold none of its own, in storage order — about
  /// log2(segments) frames per push of its own instead of one per other push, which matters
  /// because every frame is a write (and a system call) on its socket.
  ///
  /// - Complexity: each tree node used is encoded once, whatever the number of sessions:
  ///   O(commits × log segments) encoding at most; O(log segments) frames per push a session made.
  private func fanOut(
    _ segments: [(pusher: Int?, commits: [(commit: _GenericCommit, bytes: Int)])], to recipients: [Int: SyncSession]? = nil
  ) {
    guard let genesis else { return }
    let segments = segments.filter { !$0.commits.isEmpty }
    guard !segments.isEmpty else { return }
    var owned: [Int: [Int]] = [:]
    for (index, segment) in segments.enumerated() {
      if let pusher = segment.pusher { owned[pusher, default: []].append(index) }
    }
    var nodes: [Int: [[UInt8]]] = [:]
    let limit = configuration.maxCommitsFrameBytes
    // A node's commits as frames of at most `limit` commit bytes each (at least one commit each).
    func framesOf(_ lower: Int, _ upper: Int) -> [[UInt8]] {
      let key = lower * (segments.count + 1) + upper
      if let known = nodes[key] { return known }
      var encoded: [[UInt8]] = []
      var slice: [_GenericCommit] = []
      var sliceBytes = 0
      func emit() {
        if let batch = try? ReplicaBatch(commits: slice, listID: genesis.listID, codec: .generic()) {
          encoded.append(SyncMessage.commits(batch).encoded())
        }
        slice = []
        sliceBytes = 0
      }
      for segment in segments[lower..<upper] {
        for entry in segment.commits {
          if !slice.isEmpty, sliceBytes + entry.bytes > limit { emit() }
          slice.append(entry.commit)
          sliceBytes += entry.bytes
        }
      }
      if !slice.isEmpty { emit() }
      nodes[key] = encoded
      return encoded
    }
    // The nodes covering every segment in lower..<upper but the session's own (sorted indices).
    func cover(_ lower: Int, _ upper: Int, excluding own: ArraySlice<Int>, into frames: inout [[UInt8]]) {
      guard let first = own.first, first < upper else {
        frames += framesOf(lower, upper)
        return
      }
      guard upper - lower > 1 else { return }
      let middle = (lower + upper) / 2
      let split = own.firstIndex { $0 >= middle } ?? own.endIndex
      cover(lower, middle, excluding: own[own.startIndex..<split], into: &frames)
      cover(middle, upper, excluding: own[split...], into: &frames)
    }
    // A session still catching up reads these commits from storage in its next page instead.
    for (id, session) in recipients ?? sessions where catchingUp[id] == nil {
      var frames: [[UInt8]] = []
      cover(0, segments.count, excluding: (owned[id] ?? [])[...], into: &frames)
      for frame in frames where !session.queue.enqueue(frame) {
        drop(session)
        break
      }
    }
  }

  private func drop(_ session: SyncSession) {
    let queued = session.queue.queuedFrames
    sessions[session.id] = nil
    liveFrom[session.id] = nil
    observer?.sessionDropped(list: name, peer: session.peer, queuedFrames: queued)
    observer?.sessionClosed(list: name, sessions: sessions.count)
    session.drop(reason: "the client fell \(queued) frames behind; reconnect to catch up")
  }

  // MARK: Other instances

  func externalAppend(upTo position: UInt64) async {
    guard loaded, position > externalCursor else { return }
    externalPending = true
    if !appending {
      appending = true
      await runGroups()
    }
  }

  private func readExternal() async {
    guard let genesis else { return }
    do {
      let commits = try await storage.commits(of: name, after: externalCursor, limit: Int.max)
      var fresh: [(commit: _GenericCommit, bytes: Int, position: UInt64)] = []
      var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
      for commit in commits where held[commit.id] == nil {
        hold(commit)
        fresh += try codec.decodeReplicaCommits(commit.bytes).map { ($0, commit.bytes.count, commit.position) }
      }
      if let last = commits.last { externalCursor = max(externalCursor, last.position) }
      _ = genesis
      // Sessions that joined fan-out at a position get only the commits above it.
      let cutoffs = liveFrom
      fanOut([(nil, fresh.map { ($0.commit, $0.bytes) })], to: sessions.filter { cutoffs[$0.key] == nil })
      for cutoff in Set(cutoffs.values) {
        fanOut(
          [(nil, fresh.filter { $0.position > cutoff }.map { ($0.commit, $0.bytes) })],
          to: sessions.filter { cutoffs[$0.key] == cutoff })
      }
      liveFrom = liveFrom.filter { $0.value > externalCursor }
    } catch {
      if let error = error as? SyncStorageError { observer?.storageFailed(list: name, error: error) }
    }
  }

  func closeAll() -> [SyncSession] {
    let all = sessions.map(\.value)
    for id in catchingUp.keys { endCatchUp(id) }
    sessions = [:]
    liveFrom = [:]
    return all
  }
}
