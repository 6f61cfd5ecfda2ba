import JournalFormat
import ListHistory
import ListLocking
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// The hub's refusals and limits, frame by frame: duplicates, conflicting twins, read-only
/// tokens, other lists' batches, garbage and oversized frames, slow clients. Each refusal
/// touches only its own session: another client keeps syncing.
@Suite struct SyncHubTests {
  static func replica(_ id: UInt64, listID: UInt64 = 7, items: [String]) throws -> Replica {
    // A fixed clock: replicas sharing an identifier make identical commits until their edits differ.
    let replica = Replica(
      replica: ReplicaID(rawValue: id), listID: listID, configuration: ListReplicaConfiguration(clock: { 1_800_000_000 }))
    try replica.transaction { tx in try tx.appendSections([TestSection("S")]) }
    for item in items { try replica.transaction { tx in try tx.appendItems([TestItem(item)], toSection: "S") } }
    return replica
  }

  static func batch(_ replica: Replica, since vector: ReplicaVersionVector = ReplicaVersionVector()) throws -> ReplicaBatch {
    try replica.batch(since: vector, codec: SyncFixture.codec)
  }

  static func genesis(_ replica: Replica) throws -> SyncListGenesis {
    try SyncListGenesis(of: replica, codec: SyncFixture.codec)
  }

  /// Opens a raw session and says hello; returns it after the welcome.
  static func greeted(
    _ fixture: SyncFixture, genesis: SyncListGenesis?, vector: ReplicaVersionVector = ReplicaVersionVector(),
    token: String? = nil, list: String = "groceries"
  ) async throws -> RawConnection {
    let connection = try await RawConnection.open(fixture, list: list, token: token)
    try await connection.send(.hello(version: 1, vector: vector, genesis: genesis))
    guard case .welcome = try await connection.next() else {
      Issue.record("no welcome")
      return connection
    }
    return connection
  }

  /// Reads frames until the ack or error of `request`, returning it and the commits seen.
  static func answer(to request: UInt64, on connection: RawConnection) async throws -> (SyncMessage?, [ReplicaBatch]) {
    var batches: [ReplicaBatch] = []
    while let message = try await connection.next() {
      switch message {
      case .ack(request, _, _), .error(request, _, _): return (message, batches)
      case .commits(let batch): batches.append(batch)
      default: continue
      }
    }
    return (nil, batches)
  }

  @Test func pushesAreIdempotent() async throws {
    let fixture = try SyncFixture()
    let phone = try Self.replica(1, items: ["a", "b"])
    let connection = try await Self.greeted(fixture, genesis: try Self.genesis(phone))
    try await connection.send(.push(request: 1, batch: try Self.batch(phone)))
    #expect(try await Self.answer(to: 1, on: connection).0 == .ack(request: 1, stored: 3, duplicates: 0))
    try await connection.send(.push(request: 2, batch: try Self.batch(phone)))
    #expect(try await Self.answer(to: 2, on: connection).0 == .ack(request: 2, stored: 0, duplicates: 3))
    #expect(try await fixture.storage.lastPosition(of: "groceries") == 3)
    // A client reconnecting with nothing gets the three commits back, once each.
    let second = try await RawConnection.open(fixture)
    try await second.send(.hello(version: 1, vector: ReplicaVersionVector(), genesis: nil))
    guard case .welcome(_, let position, let vector) = try await second.next() else { throw DeadlineExceeded(what: "welcome") }
    #expect(position == 3)
    #expect(vector == phone.versionVector)
    try await second.send(.push(request: 9, batch: try Self.batch(phone, since: phone.versionVector)))
    let (_, batches) = try await Self.answer(to: 9, on: second)
    let received = try batches.flatMap { try $0.commits(codec: SyncFixture.codec).commits }
    #expect(received == phone.commits)
    await fixture.hub.shutdown()
  }

  @Test func aConflictingTwinIsRefusedAndTheSessionStaysOpen() async throws {
    let fixture = try SyncFixture()
    let original = try Self.replica(1, items: ["a"])
    // Same replica identifier, different edits: the same commit identities, different contents.
    let impostor = try Self.replica(1, items: ["z"])
    let connection = try await Self.greeted(fixture, genesis: try Self.genesis(original))
    try await connection.send(.push(request: 1, batch: try Self.batch(original)))
    #expect(try await Self.answer(to: 1, on: connection).0 == .ack(request: 1, stored: 2, duplicates: 0))
    try await connection.send(.push(request: 2, batch: try Self.batch(impostor)))
    guard case .error(2, let code, let message) = try await Self.answer(to: 2, on: connection).0 else {
      Issue.record("the twin was not refused")
      return
    }
    #expect(code == .conflictingCommit)
    #expect(message.contains("0000000000000001:2"))
    // Still open: a good push goes through.
    try original.transaction { tx in try tx.appendItems([TestItem("b")], toSection: "S") }
    try await connection.send(.push(request: 3, batch: try Self.batch(original)))
    #expect(try await Self.answer(to: 3, on: connection).0 == .ack(request: 3, stored: 1, duplicates: 2))
    await fixture.hub.shutdown()
  }

  @Test func readOnlyTokensMayNotPushButReceive() async throws {
    var configuration = SyncHubConfiguration()
    configuration.accessPolicy = SyncAccessPolicy(tokens: [
      .init(token: "writer", lists: .named(["groceries"]), access: .write),
      .init(token: "reader", lists: .all, access: .read),
    ])
    let fixture = try SyncFixture(configuration: configuration)
    let phone = try Self.replica(1, items: ["a"])
    // Refused before a session: no token, a token for other lists, a read-only token on a list
    // that does not exist.
    for (token, list, status) in [(nil, "groceries", 401), ("nobody", "groceries", 401), ("writer", "chores", 403), ("reader", "groceries", 404)] {
      await #expect(throws: SyncTransportError.refused(status: status, message: "")) {
        do { _ = try await RawConnection.open(fixture, list: list, token: token) } catch SyncTransportError.refused(let status, _) {
          throw SyncTransportError.refused(status: status, message: "")
        }
      }
    }
    let writer = try await Self.greeted(fixture, genesis: try Self.genesis(phone), token: "writer")
    let reader = try await Self.greeted(fixture, genesis: nil, token: "reader")
    try await reader.send(.push(request: 4, batch: try Self.batch(phone)))
    guard case .error(4, .readOnly, _) = try await Self.answer(to: 4, on: reader).0 else {
      Issue.record("a read-only push was not refused with code 3")
      return
    }
    #expect(try await fixture.storage.lastPosition(of: "groceries") == 0)
    // The reader stays open and receives the writer's commits.
    try await writer.send(.push(request: 1, batch: try Self.batch(phone)))
    #expect(try await Self.answer(to: 1, on: writer).0 == .ack(request: 1, stored: 2, duplicates: 0))
    try await reader.send(.push(request: 5, batch: try Self.batch(phone)))
    let (answer, batches) = try await Self.answer(to: 5, on: reader)
    guard case .error(5, .readOnly, _) = answer else { throw DeadlineExceeded(what: "second refusal") }
    #expect(try batches.flatMap { try $0.commits(codec: SyncFixture.codec).commits } == phone.commits)
    await fixture.hub.shutdown()
  }

  /// A client whose token is refused stops with a typed error instead of reconnecting forever;
  /// a client whose server is only unreachable keeps trying.
  @Test func aRefusedTokenStopsTheClient() async throws {
    var configuration = SyncHubConfiguration()
    configuration.accessPolicy = SyncAccessPolicy(tokens: [.init(token: "writer", lists: .named(["chores"]), access: .write)])
    let fixture = try SyncFixture(configuration: configuration)
    for (token, status) in [("writer", 403), ("stale", 401)] {
      let client = fixture.client(try Self.replica(1, items: ["a"]), token: token)
      try await withDeadline("a refused client did not stop") {
        await #expect(throws: SyncClientError.connection(.refused(status: status, message: ""))) {
          do { try await client.run() } catch SyncClientError.connection(.refused(let status, _)) {
            throw SyncClientError.connection(.refused(status: status, message: ""))
          }
        }
      }
      #expect(client.status.connections == 0)
      await #expect(throws: SyncClientError.self) { try await client.waitUntilSynced() }
    }
    #expect(SyncTransportError.failed("connection reset").isRetryable)
    #expect(SyncTransportError.refused(status: 503, message: "shutting down").isRetryable)
    #expect(!SyncTransportError.unsupported("no WebSockets in libcurl").isRetryable)
    await fixture.hub.shutdown()
  }

  @Test func anotherListsBatchIsRefused() async throws {
    let fixture = try SyncFixture()
    let phone = try Self.replica(1, items: ["a"])
    let stranger = try Self.replica(2, listID: 99, items: ["x"])
    let connection = try await Self.greeted(fixture, genesis: try Self.genesis(phone))
    try await connection.send(.push(request: 1, batch: try Self.batch(stranger)))
    guard case .error(1, .differentList, let message) = try await Self.answer(to: 1, on: connection).0 else {
      Issue.record("another list's batch was not refused")
      return
    }
    #expect(message.contains(_hexForTests(99)))
    // A hello whose genesis is of another list is refused and closes.
    let other = try await RawConnection.open(fixture)
    try await other.send(.hello(version: 1, vector: ReplicaVersionVector(), genesis: try Self.genesis(stranger)))
    guard case .error(0, .differentList, _) = try await other.next() else {
      Issue.record("a hello of another list was not refused")
      return
    }
    #expect(try await other.next() == nil)
    // A hello whose base does not decode does not create the list.
    let garbled = try await RawConnection.open(fixture, list: "chores")
    try await garbled.send(.hello(version: 1, vector: ReplicaVersionVector(), genesis: SyncListGenesis(listID: 5, base: [1, 2, 3])))
    guard case .error(0, .malformed, _) = try await garbled.next() else {
      Issue.record("a hello with an undecodable base was not refused")
      return
    }
    #expect(try await fixture.storage.genesis(of: "chores") == nil)
    // The first session is unaffected.
    try await connection.send(.push(request: 2, batch: try Self.batch(phone)))
    #expect(try await Self.answer(to: 2, on: connection).0 == .ack(request: 2, stored: 2, duplicates: 0))
    await fixture.hub.shutdown()
  }

  @Test func garbageAndOversizedFramesCloseOnlyTheirSession() async throws {
    var configuration = SyncHubConfiguration()
    configuration.maxFrameBytes = 4096
    configuration.maxCommitsPerPush = 5
    let fixture = try SyncFixture(configuration: configuration)
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 7)
    let laptop = Replica(cloning: phone, replica: ReplicaID(rawValue: 2))
    let phoneRunner = Runner(fixture.client(phone))
    let laptopRunner = Runner(fixture.client(laptop))
    try await withDeadline("connect") {
      try await phoneRunner.client.waitUntilSynced()
      try await laptopRunner.client.waitUntilSynced()
    }
    let big = try Self.replica(3, items: (0..<10).map { "big\($0)" })
    let cases: [(String, [UInt8], SyncErrorCode)] = [
      ("garbage", [0xEE, 1, 2, 3], .malformed),
      ("a push with a damaged batch", SyncMessage.push(request: 1, batch: ReplicaBatch(bytes: Array("LJRB".utf8) + [1] + [UInt8](repeating: 7, count: 8) + [16, 0, 0, 0] + [UInt8](repeating: 7, count: 18))).encoded(), .malformed),
      ("a push declaring 117 MB decompressed", SyncMessage.push(request: 1, batch: ReplicaBatch(bytes: Array("LJRB".utf8) + [1] + [UInt8](repeating: 7, count: 30))).encoded(), .tooLarge),
      ("an oversized frame", [3, 1] + [UInt8](repeating: 0, count: 5000), .tooLarge),
      ("too many commits", SyncMessage.push(request: 1, batch: try Self.batch(big)).encoded(), .tooLarge),
      ("a hello of version 2", SyncMessage.hello(version: 2, vector: ReplicaVersionVector(), genesis: nil).encoded(), .unsupportedVersion),
      ("a server message", SyncMessage.ack(request: 1, stored: 0, duplicates: 0).encoded(), .malformed),
    ]
    for (index, (name, frame, code)) in cases.enumerated() {
      let bad = try await RawConnection.open(fixture)
      if code != .unsupportedVersion {
        try await bad.send(.hello(version: 1, vector: ReplicaVersionVector(), genesis: nil))
        _ = try await bad.next()
      }
      try await bad.channel.send(frame)
      var refusal: SyncMessage?
      while let message = try await bad.next() {
        if case .error = message { refusal = message }
      }
      guard case .error(_, let got, _) = refusal else {
        Issue.record("\(name): no error before the close")
        continue
      }
      #expect(got == code, "\(name)")
      // Meanwhile the others keep syncing.
      _ = try await phoneRunner.client.transaction { tx in
        if index == 0 { try tx.appendSections([TestSection("S")]) }
        try tx.appendItems([TestItem("p\(index)")], toSection: "S")
      }
      try await withDeadline("sync after \(name)") {
        try await phoneRunner.client.waitUntilSynced()
        try await laptopRunner.client.waitUntilSynced()
      }
      #expect(laptop.snapshot == phone.snapshot, "\(name)")
    }
    #expect(phoneRunner.client.status.connections == 1)
    #expect(laptopRunner.client.status.connections == 1)
    // The refused sessions are gone; the two clients' remain.
    #expect(fixture.hub.sessionCount == 2)
    await phoneRunner.stop()
    await laptopRunner.stop()
    await fixture.hub.shutdown()
  }

  @Test func aClientTooFarBehindIsDisconnected() async throws {
    var configuration = SyncHubConfiguration()
    configuration.maxQueuedFrames = 3
    let observer = CountingObserver()
    let fixture = try SyncFixture(configuration: configuration, observer: observer)
    let phone = Replica(replica: ReplicaID(rawValue: 1), listID: 7)
    let phoneRunner = Runner(fixture.client(phone))
    try await withDeadline("create") { try await phoneRunner.client.waitUntilSynced() }
    // A session whose socket never takes a frame.
    let gate = ListMutex(false)
    let closed = ListMutex<UInt16?>(nil)
    let slow = try await fixture.hub.openSession(
      list: "groceries", access: .read,
      send: { _ in
        while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
      },
      close: { code, _ in closed.withLock { $0 = code } })
    #expect(await slow.receive(SyncMessage.hello(version: 1, vector: ReplicaVersionVector(), genesis: nil).encoded()) == .keepOpen)
    for index in 0..<12 {
      _ = try await phoneRunner.client.transaction { tx in
        if index == 0 { try tx.appendSections([TestSection("S")]) }
        try tx.appendItems([TestItem("i\(index)")], toSection: "S")
      }
      try await withDeadline("push \(index)") { try await phoneRunner.client.waitUntilSynced() }
    }
    for _ in 0..<12_000 where closed.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
    #expect(closed.withLock { $0 } == 1008)
    #expect(slow.isClosed)
    #expect(observer.dropped.withLock { $0 } == 1)
    gate.withLock { $0 = true }
    await phoneRunner.stop()
    await fixture.hub.shutdown()
  }
}

extension SyncHubTests {
  /// Shutdown closes every session (1001) even when one never takes a frame, and refuses new ones.
  @Test func shutdownDoesNotWaitForASocketThatTakesNothing() async throws {
    let fixture = try SyncFixture()
    let phone = try Self.replica(1, items: ["a"])
    let writer = try await Self.greeted(fixture, genesis: try Self.genesis(phone))
    let closed = ListMutex<UInt16?>(nil)
    let stuck = try await fixture.hub.openSession(
      list: "groceries", access: .read, send: { _ in try? await Task.sleep(for: .seconds(3600)) },
      close: { code, _ in closed.withLock { $0 = code } })
    _ = await stuck.receive(SyncMessage.hello(version: 1, vector: ReplicaVersionVector(), genesis: nil).encoded())
    try await writer.send(.push(request: 1, batch: try Self.batch(phone)))
    _ = try await Self.answer(to: 1, on: writer)
    try await withDeadline(seconds: 300, "shutdown") { await fixture.hub.shutdown() }
    #expect(closed.withLock { $0 } == 1001)
    #expect(stuck.isClosed)
    #expect(try await writer.next() == nil, "the other session was closed too")
    await #expect(throws: SyncHubError.shuttingDown) {
      _ = try await fixture.hub.openSession(list: "groceries", access: .write, send: { _ in })
    }
  }
}

func _hexForTests(_ value: UInt64) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 16 - digits.count) + digits
}

final class CountingObserver: SyncHubObserver {
  let dropped = ListMutex(0)
  let stored = ListMutex(0)
  let refusals = ListMutex<[SyncErrorCode]>([])

  func sessionDropped(list: String, queuedFrames: Int) { dropped.withLock { $0 += 1 } }
  func commitsStored(list: String, count: Int, pushes: Int) { stored.withLock { $0 += count } }
  func refused(list: String, code: SyncErrorCode, reason: String) { refusals.withLock { $0.append(code) } }
}
