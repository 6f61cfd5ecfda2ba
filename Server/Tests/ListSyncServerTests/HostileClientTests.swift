import Foundation
import ListHistory
import ListReplica
import ListState
import ListSync
import ListSyncHummingbird
import ListSyncWebSocketClient
import Logging
import SyncWorkload
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a client with a valid token could do to the server as an attacker: batches that declare
/// huge sizes, giant commits, clocks near 2^64, commits under another replica's identity,
/// connections that never finish a request, text meant to forge log lines. Each is refused by a
/// documented limit, and the list and other clients are unaffected.
@Suite("Hostile clients: limits, clocks, authorship, the HTTP stage", .timeLimit(.minutes(3)))
struct HostileClientTests {
  static let policy = SyncAccessPolicy(tokens: [
    .init(token: "alice", lists: .all, access: .write),
    .init(token: "mallory", lists: .all, access: .write),
    .init(token: "reader", lists: .all, access: .read),
  ])

  static let tokensJSON = """
    {"tokens": [{"token": "alice", "lists": "*", "access": "write"},
                {"token": "mallory", "lists": "*", "access": "write"},
                {"token": "reader", "lists": "*", "access": "read"}]}
    """

  /// A replica of the list the server hosts, made from its welcome (for hand-made pushes).
  static func replica(_ id: UInt64, of genesis: SyncListGenesis) throws -> ListReplica<String, SyncRow> {
    let base = try genesis.decodeBase(codec: TestClient.codec)
    return ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: id), listID: genesis.listID, base: base)
  }

  static func welcome(_ raw: RawSession, genesis: SyncListGenesis? = nil) async throws -> SyncListGenesis {
    guard case .welcome(let hosted, _, _) = try await raw.hello(genesis: genesis) else {
      throw RawTCP.Failure("no welcome")
    }
    return hosted
  }

  static func commitCount(_ server: String, list: String) async throws -> Int? {
    try await HTTPProbe.get(server + "/v1/lists/\(list)/log?limit=1", token: "reader").json["commits"] as? Int
  }

  /// A batch whose header declares `declared` decompressed bytes (the CRC covers only the
  /// compressed bytes, so it still checks).
  static func batch(_ batch: ReplicaBatch, declaring declared: UInt32) -> ReplicaBatch {
    var bytes = batch.bytes
    withUnsafeBytes(of: declared.littleEndian) { bytes.replaceSubrange(13..<17, with: $0) }
    return ReplicaBatch(bytes: bytes)
  }

  // MARK: Limits before allocating

  @Test func aBatchDeclaringAHugeSizeIsRefusedBeforeItsBufferIsMade() throws {
    let replica = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 5), listID: 9, base: SyncWorkload.base(items: 2))
    try replica.transaction { tx in try tx.appendItems([SyncRow(id: "x", value: "y")], toSection: "Inbox") }
    let real = try replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)
    let forged = Self.batch(real, declaring: (1 << 30) - 1)
    #expect(throws: ReplicaError.limitExceeded(
      "the batch declares 1073741823 decompressed bytes, more than the limit of \(64 << 20)")) {
      _ = try forged.commits(codec: TestClient.codec)
    }
    // Within the limit but not what the zstd frame says: damaged, still before decompressing.
    let lying = Self.batch(real, declaring: 1 << 20)
    do {
      _ = try lying.commits(codec: TestClient.codec)
      Issue.record("a batch declaring 1 MiB more than its frame was accepted")
    } catch {
      guard case .damagedBatch = error else {
        Issue.record("expected damagedBatch, got \(error)")
        return
      }
    }
    // A replica receiving from anywhere applies the same limits.
    let other = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 6), listID: 9, base: SyncWorkload.base(items: 2))
    #expect(throws: ReplicaError.self) { try other.receive(forged, codec: TestClient.codec) }
    #expect(other.commitCount == 0)
  }

  @Test func theServersPeakMemoryStaysFlatUnderAmplifyingPushes() async throws {
    let directory = try TestServer.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let tokens = directory.appendingPathComponent("tokens.json")
    try Data(Self.tokensJSON.utf8).write(to: tokens)
    let process = try ServerProcess.start(data: data, arguments: ["--tokens", tokens.path])
    defer { _ = process.terminate() }
    let server = FakeServer(port: process.port)
    let raw = try await RawSession.open(server, list: "amplified", token: "alice")
    let genesis = try await Self.welcome(raw)
    let replica = try Self.replica(7, of: genesis)
    try replica.transaction { tx in try tx.appendSections(["S"]) }
    try await raw.send(.push(request: 1, batch: try replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)))
    guard case .ack = try await raw.reply() else {
      Issue.record("the first push was not acknowledged")
      return
    }
    let before = try #require(peakResidentBytes(pid: process.process.processIdentifier))
    try replica.transaction { tx in try tx.appendSections(["T"]) }
    let real = try replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)
    let forged = Self.batch(real, declaring: (1 << 30) - 1)
    var codes: [SyncErrorCode] = []
    // Four connections at once, each pushing a batch of a few dozen bytes declaring 1 GiB.
    try await withThrowingTaskGroup(of: SyncErrorCode?.self) { group in
      for _ in 0..<4 {
        group.addTask {
          let attacker = try await RawSession.open(server, list: "amplified", token: "mallory")
          _ = try await Self.welcome(attacker)
          try await attacker.send(.push(request: 2, batch: forged))
          guard case .error(_, let code, _) = try await attacker.reply() else { return nil }
          #expect(await attacker.isClosedByServer())
          return code
        }
      }
      for try await code in group { if let code { codes.append(code) } }
    }
    #expect(codes == [.tooLarge, .tooLarge, .tooLarge, .tooLarge])
    let after = try #require(peakResidentBytes(pid: process.process.processIdentifier))
    #expect(after - before < 64 << 20, "peak RSS grew from \(before >> 20) MiB to \(after >> 20) MiB")
    print("amplification: peak RSS \(before >> 20) MiB before, \(after >> 20) MiB after four 1 GiB declarations")
    #expect(try await Self.commitCount(server.http, list: "amplified") == 1)
    #expect(process.log.contains("too large"))
    await raw.channel.close()
  }

  @Test func giantLabelsAndContentsAreRefused() async throws {
    let server = try await TestServer.start(policy: Self.policy)
    let raw = try await RawSession.open(server, list: "labels", token: "alice")
    let genesis = try await Self.welcome(raw)
    let replica = try Self.replica(3, of: genesis)
    // 40 MiB of one byte compresses to a few KiB: within the frame limit, over the label limit.
    try replica.transaction(label: String(repeating: "a", count: 40 << 20)) { tx in try tx.appendSections(["S"]) }
    try await raw.send(.push(request: 1, batch: try replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)))
    guard case .error(1, let code, let message) = try await raw.reply() else {
      Issue.record("a 40 MiB label was not refused")
      return
    }
    // Over the decoded-size limit (32 MiB) first.
    #expect(code == .tooLarge, "\(message)")
    #expect(await raw.isClosedByServer())
    let second = try await RawSession.open(server, list: "labels", token: "alice")
    _ = try await Self.welcome(second)
    let small = try Self.replica(4, of: genesis)
    try small.transaction(label: String(repeating: "b", count: 100 << 10)) { tx in try tx.appendSections(["S"]) }
    try await second.send(.push(request: 2, batch: try small.batch(since: ReplicaVersionVector(), codec: TestClient.codec)))
    guard case .error(2, let labelCode, let labelMessage) = try await second.reply() else {
      Issue.record("a 100 KiB label was not refused")
      return
    }
    #expect(labelCode == .overLimit)
    #expect(labelMessage.contains("label of 102400 bytes"), "\(labelMessage)")
    let third = try await RawSession.open(server, list: "labels", token: "alice")
    _ = try await Self.welcome(third)
    let content = try Self.replica(5, of: genesis)
    try content.transaction { tx in
      try tx.appendSections(["S"])
      try tx.appendItems([SyncRow(id: "big", value: String(repeating: "c", count: 2 << 20))], toSection: "S")
    }
    try await third.send(.push(request: 3, batch: try content.batch(since: ReplicaVersionVector(), codec: TestClient.codec)))
    guard case .error(3, let contentCode, let contentMessage) = try await third.reply() else {
      Issue.record("a 2 MiB item was not refused")
      return
    }
    #expect(contentCode == .overLimit)
    #expect(contentMessage.contains("more than the limit of \(1 << 20)"), "\(contentMessage)")
    #expect(try await Self.commitCount(server.http, list: "labels") == 0)
    try await server.stop()
    server.removeFiles()
  }

  // MARK: Catch-up in bytes

  @Test func aListOfLargeCommitsStaysJoinable() async throws {
    let frameBytes = 256 << 10
    let server = try await TestServer.start(policy: Self.policy) { $0.maxCommitsFrameBytes = frameBytes }
    let raw = try await RawSession.open(server, list: "large", token: "alice")
    let genesis = try await Self.welcome(raw)
    let replica = try Self.replica(8, of: genesis)
    try replica.transaction { tx in try tx.appendSections(["S"]) }
    var generator = SystemRandomNumberGenerator()
    // 60 commits of ~60 KiB that do not compress: 3.6 MiB, 14 frames' worth at 256 KiB.
    for index in 0..<60 {
      let value = Self.incompressible(60 << 10, using: &generator)
      try replica.transaction { tx in try tx.appendItems([SyncRow(id: "r\(index)", value: value)], toSection: "S") }
    }
    try await raw.send(.push(request: 1, batch: try replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)))
    guard case .ack(1, 61, 0) = try await raw.reply() else {
      Issue.record("the push was not acknowledged whole")
      return
    }
    await raw.channel.close()
    // A fresh session's catch-up: every frame within the bound, every commit there.
    let fresh = try await RawSession.open(server, list: "large", token: "reader")
    _ = try await Self.welcome(fresh)
    var received = 0
    var largest = 0
    while received < 61, let frame = try await fresh.channel.receive() {
      guard case .commits(let batch) = try SyncMessage(decoding: frame) else { continue }
      received += try batch.commits(codec: TestClient.codec).commits.count
      largest = max(largest, frame.count)
    }
    #expect(received == 61)
    #expect(largest <= frameBytes + (64 << 10), "a catch-up frame of \(largest) bytes")
    await fresh.channel.close()
    // And SyncClient.join works on it.
    let joined = try await TestClient.joining(list: "large", url: server.url, token: "reader", seed: 1, index: 30)
    #expect(joined.client.replica.commitCount == 61)
    try await server.stop()
    server.removeFiles()
  }

  static func incompressible(_ count: Int, using generator: inout SystemRandomNumberGenerator) -> String {
    var bytes = [UInt8](repeating: 0, count: count)
    for index in bytes.indices { bytes[index] = 97 + UInt8(truncatingIfNeeded: generator.next() % 26) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A WebSocket upgrade and a masked binary hello over a raw socket that then reads nothing.
  static func nonReadingSession(port: Int, list: String, token: String) throws -> RawTCP {
    let connection = try RawTCP(port: port)
    connection.send(
      "GET /v1/lists/\(list)/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n")
    let hello = SyncMessage.hello(version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(), genesis: nil).encoded()
    precondition(hello.count < 126)
    let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    connection.send([0x82, 0x80 | UInt8(hello.count)] + mask + hello.enumerated().map { $0.element ^ mask[$0.offset % 4] })
    return connection
  }

  // MARK: Slow readers

  @Test func aSessionThatStopsReadingIsCutByBytesQueued() async throws {
    let server = try await TestServer.start(policy: Self.policy) { $0.maxQueuedBytes = 1 << 20 }
    let alice = TestClient.creating(
      list: "slow", url: server.url, token: "alice", listID: 0x510, base: SyncWorkload.base(items: 2), seed: 6, index: 50)
    alice.goOnline()
    try await alice.sync()
    let stalled = try Self.nonReadingSession(port: server.port, list: "slow", token: "reader")
    let deadline = ContinuousClock.now + .seconds(20)
    while server.hub.sessionCount < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(server.hub.sessionCount == 2, "the non-reading session did not open")
    var generator = SystemRandomNumberGenerator()
    // 30 MiB of incompressible commits: far more than the socket buffers and the 1 MiB bound.
    var pushed = 0
    while pushed < 30 << 20, server.hub.sessionCount == 2 {
      for _ in 0..<20 {
        let value = Self.incompressible(48 << 10, using: &generator)
        try alice.client.replica.transaction { tx in
          try tx.appendItems([SyncRow(id: "s\(pushed)", value: value)], toSection: SyncWorkload.sections[0])
        }
        pushed += value.utf8.count
      }
      try await alice.sync()
    }
    while server.hub.sessionCount > 1, ContinuousClock.now < deadline + .seconds(20) {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(server.hub.sessionCount == 1, "the session that reads nothing is still open after \(pushed >> 20) MiB")
    #expect(pushed < 30 << 20, "it took all \(pushed >> 20) MiB to drop the non-reader")
    #expect(alice.client.status.connections == 1)
    // Its socket is closed too, though it takes no close frame (the connection ends on the server).
    while server.server.connectionCount > 1, ContinuousClock.now < deadline + .seconds(35) {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(server.server.connectionCount == 1, "the dropped session's connection is still open")
    stalled.shutdown()
    await alice.goOffline()
    try await server.stop()
    server.removeFiles()
  }

  /// SIGTERM with a client that never reads (its socket idle) and one whose socket is full: the
  /// executable exits within a few seconds, and what it acknowledged is stored.
  @Test func shutdownIsPromptWithClientsThatNeverRead() async throws {
    let directory = try TestServer.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let tokens = directory.appendingPathComponent("tokens.json")
    try Data(Self.tokensJSON.utf8).write(to: tokens)
    let arguments = ["--tokens", tokens.path]
    let process = try ServerProcess.start(data: data, arguments: arguments)
    defer { _ = process.terminate() }
    let server = FakeServer(port: process.port)
    let alice = TestClient.creating(
      list: "stalled", url: server.url, token: "alice", listID: 0x57A1, base: SyncWorkload.base(items: 2), seed: 8, index: 60)
    alice.goOnline()
    try await alice.sync()
    // One on a list nobody writes to (its socket stays empty), one that receives everything.
    let idle = try Self.nonReadingSession(port: process.port, list: "quiet", token: "alice")
    let full = try Self.nonReadingSession(port: process.port, list: "stalled", token: "reader")
    let deadline = ContinuousClock.now + .seconds(20)
    func sessions() async throws -> Int? {
      try await HTTPProbe.get(server.http + "/health").json["sessions"] as? Int
    }
    while try await sessions() != 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    #expect(try await sessions() == 3, "the non-reading sessions did not open")
    // 20 MiB of incompressible commits: more than loopback's socket buffers, under the 64 MiB bound.
    var generator = SystemRandomNumberGenerator()
    for round in 0..<20 {
      for index in 0..<20 {
        let value = Self.incompressible(52 << 10, using: &generator)
        try alice.client.replica.transaction { tx in
          try tx.appendItems([SyncRow(id: "f\(round)-\(index)", value: value)], toSection: SyncWorkload.sections[0])
        }
      }
      try await alice.sync()
    }
    #expect(try await sessions() == 3, "the full session was dropped before the shutdown")
    let acknowledged = alice.client.replica.commitCount
    await alice.goOffline()
    let started = ContinuousClock.now
    let status = process.terminate(timeout: 30)
    let took = ContinuousClock.now - started
    #expect(status == 0, "log:\n\(process.log.suffix(2000))")
    #expect(took < .seconds(5), "the shutdown took \(took)")
    print("shutdown with two non-reading clients: \(took)")
    idle.shutdown()
    full.shutdown()
    let again = try ServerProcess.start(data: data, arguments: arguments)
    defer { _ = again.terminate() }
    #expect(try await Self.commitCount("http://\(again.baseURL)", list: "stalled") == acknowledged)
  }

  /// Refusals of messages name the list and the peer (the remote address), like the closes.
  @Test func messageRefusalsAreLoggedWithThePeer() async throws {
    let directory = try TestServer.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let tokens = directory.appendingPathComponent("tokens.json")
    try Data(Self.tokensJSON.utf8).write(to: tokens)
    let process = try ServerProcess.start(data: data, arguments: ["--tokens", tokens.path])
    defer { _ = process.terminate() }
    let writer = try await RawSession.open(FakeServer(port: process.port), list: "logged", token: "alice")
    _ = try await Self.welcome(writer)
    // A read-only session's push: refused with error 3, the connection stays open.
    let reader = try Self.nonReadingSession(port: process.port, list: "logged", token: "reader")
    let replica = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 31), listID: 1, base: SyncWorkload.base(items: 1))
    try replica.transaction { tx in try tx.appendSections(["R"]) }
    reader.sendBinaryFrame(
      SyncMessage.push(request: 4, batch: try replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)).encoded())
    let peer = "127.0.0.1:\(reader.localPort)"
    let deadline = ContinuousClock.now + .seconds(10)
    func refusal() -> String? {
      process.log.split(separator: "\n").map(String.init).first { $0.contains("message refused") }
    }
    while refusal() == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    let line = try #require(refusal(), "no refusal logged:\n\(process.log.suffix(2000))")
    #expect(line.contains("peer=\(peer)"), "\(line)")
    #expect(line.contains("list=logged"), "\(line)")
    reader.shutdown()
    await writer.channel.close()
  }

  // MARK: Clocks

  @Test func aClockNearTwoToTheSixtyFourIsRefusedAndNoClientTraps() async throws {
    let server = try await TestServer.start(policy: Self.policy)
    let raw = try await RawSession.open(server, list: "clock", token: "mallory")
    let seed = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 12), listID: 0xC10C, base: SyncWorkload.base(items: 2))
    let genesis = try await Self.welcome(raw, genesis: try SyncListGenesis(of: seed, codec: TestClient.codec))
    let replica = try Self.replica(11, of: genesis)
    try replica.transaction { tx in try tx.appendSections(["S"]) }
    var commits = replica.changes(since: ReplicaVersionVector())
    commits[0].lamportClock = .max
    try await raw.send(.push(request: 9, batch: try ReplicaBatch(commits: commits, listID: genesis.listID, codec: TestClient.codec)))
    guard case .error(9, let code, let message) = try await raw.reply() else {
      Issue.record("a clock of 2^64 - 1 was not refused")
      return
    }
    #expect(code == .overLimit)
    #expect(message.contains("Lamport clock 18446744073709551615"), "\(message)")
    #expect(await raw.isClosedByServer())
    #expect(try await Self.commitCount(server.http, list: "clock") == 0)
    // A well-behaved client still joins, edits and syncs.
    let client = try await TestClient.joining(list: "clock", url: server.url, token: "alice", seed: 2, index: 40)
    client.goOnline()
    try await client.edit(3)
    try await client.sync()
    #expect(try await Self.commitCount(server.http, list: "clock") == client.client.replica.commitCount)
    await client.goOffline()
    try await server.stop()
    server.removeFiles()
  }

  @Test func aReplicaNeverTrapsOnAReceivedClock() throws {
    let source = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 1), listID: 4, base: SyncWorkload.base(items: 1))
    try source.transaction { tx in try tx.appendSections(["S"]) }
    var commits = source.changes(since: ReplicaVersionVector())
    commits[0].lamportClock = .max
    let target = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 2), listID: 4, base: SyncWorkload.base(items: 1))
    #expect(throws: ReplicaError.self) { try target.receive(commits) }
    // At the ceiling (accepted with a lead that allows it), the next edit throws instead of trapping.
    commits[0].lamportClock = ReplicaBatchLimits.clockCeiling
    try target.receive(commits, limits: ReplicaBatchLimits(maxClockLead: .max))
    #expect(target.lamportClock == ReplicaBatchLimits.clockCeiling)
    #expect(throws: ReplicaError.clockExhausted(ReplicaBatchLimits.clockCeiling)) {
      try target.transaction { tx in try tx.appendSections(["T"]) }
    }
  }

  // MARK: Authorship

  @Test func aWriterCannotPushUnderAnotherReplicasIdentity() async throws {
    let directory = try TestServer.temporaryDirectory()
    var server = try await TestServer.start(directory: directory, policy: Self.policy)
    let alice = TestClient.creating(
      list: "shared", url: server.url, token: "alice", listID: 0xA11CE, base: SyncWorkload.base(items: 3), seed: 5, index: 20)
    alice.goOnline()
    try await alice.edit(2)
    try await alice.sync()
    let aliceReplica = alice.client.replica.replicaID
    // Mallory holds everything Alice pushed and makes Alice's next commit.
    func forge() async throws -> SyncMessage? {
      let raw = try await RawSession.open(server, list: "shared", token: "mallory")
      let genesis = try await Self.welcome(raw)
      let fake = ListReplica<String, SyncRow>(
        replica: aliceReplica, listID: genesis.listID, base: try genesis.decodeBase(codec: TestClient.codec))
      try fake.receive(alice.client.replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec), codec: TestClient.codec)
      try fake.transaction(label: "forged") { tx in try tx.appendSections(["Forged"]) }
      try await raw.send(.push(request: 7, batch: try fake.batch(since: alice.client.replica.versionVector, codec: TestClient.codec)))
      let reply = try await raw.reply()
      await raw.channel.close()
      return reply
    }
    guard case .error(7, let code, let message) = try await forge() else {
      Issue.record("a commit under Alice's replica from Mallory's token was not refused")
      return
    }
    #expect(code == .notTheAuthor)
    #expect(message.contains("\(aliceReplica)"), "\(message)")
    // Alice's real next commit is accepted.
    try await alice.edit(1)
    try await alice.sync()
    #expect(try await Self.commitCount(server.http, list: "shared") == alice.client.replica.commitCount)
    await alice.goOffline()
    // The binding survives a restart (it is on disk, not only in memory).
    try await server.stop()
    server = try await TestServer.start(directory: directory, policy: Self.policy)
    guard case .error(7, let again, _) = try await forge() else {
      Issue.record("after a restart, Mallory's forged commit was not refused")
      return
    }
    #expect(again == .notTheAuthor)
    try await server.stop()
    server.removeFiles()
  }

  // MARK: The HTTP stage

  @Test func connectionsThatNeverFinishARequestAreClosedAndLogged() async throws {
    let directory = try TestServer.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let process = try ServerProcess.start(data: data, arguments: ["--header-timeout", "1"])
    defer { _ = process.terminate() }
    let idle = try RawTCP(port: process.port)
    let partial = try RawTCP(port: process.port)
    partial.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    let tls = try RawTCP(port: process.port)
    tls.send([0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03])
    let huge = try RawTCP(port: process.port)
    huge.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + String(repeating: "p", count: 100 << 10) + "\r\n\r\n")
    let garbage = try RawTCP(port: process.port)
    garbage.send("\u{1}\u{2} NOT HTTP AT ALL\r\n\r\n")
    let idleReply = try #require(idle.readUntilClosed(within: 10), "an idle connection was not closed")
    #expect(String(decoding: idleReply, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
    let partialReply = try #require(partial.readUntilClosed(within: 10), "a half-sent head was not closed")
    #expect(String(decoding: partialReply, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
    #expect(tls.readUntilClosed(within: 10) == [], "a TLS hello was not closed at once")
    let hugeReply = try #require(huge.readUntilClosed(within: 10), "a 100 KiB header was not closed")
    #expect(String(decoding: hugeReply, as: UTF8.self).hasPrefix("HTTP/1.1 431"))
    let garbageReply = try #require(garbage.readUntilClosed(within: 10), "a garbage head was not closed")
    #expect(String(decoding: garbageReply, as: UTF8.self).hasPrefix("HTTP/1.1 400"), "\(String(decoding: garbageReply, as: UTF8.self))")
    // A well-behaved request still works on the same server.
    #expect(try await HTTPProbe.get("http://\(process.baseURL)/health").status == 200)
    let log = process.log
    #expect(log.contains("no complete request head within 1 s"))
    #expect(log.contains("a TLS handshake on a plain HTTP port"))
    #expect(log.contains("a request head over"))
  }

  @Test func refusedUpgradesSayWhyWithTheDocumentedStatus() async throws {
    let directory = try TestServer.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let tokens = directory.appendingPathComponent("tokens.json")
    try Data(
      #"{"tokens": [{"token": "writer", "lists": ["groceries"], "access": "write"}, {"token": "reader", "lists": "*", "access": "read"}]}"#
        .utf8
    ).write(to: tokens)
    let process = try ServerProcess.start(data: data, arguments: ["--tokens", tokens.path])
    defer { _ = process.terminate() }
    func upgrade(_ list: String, token: String?) throws -> (status: Int, body: String) {
      let connection = try RawTCP(port: process.port)
      var request =
        "GET /v1/lists/\(list)/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      if let token { request += "Authorization: Bearer \(token)\r\n" }
      connection.send(request + "\r\n")
      let reply = String(decoding: connection.readUntilClosed(within: 10) ?? [], as: UTF8.self)
      let status = reply.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
      let body = reply.components(separatedBy: "\r\n\r\n").dropFirst().joined()
      return (status, body)
    }
    let none = try upgrade("groceries", token: nil)
    #expect(none.status == 401)
    #expect(none.body.contains("\"unauthorized\""), "\(none.body)")
    let unknown = try upgrade("groceries", token: "guess")
    #expect(unknown.status == 401)
    let other = try upgrade("chores", token: "writer")
    #expect(other.status == 403)
    #expect(other.body.contains("\"forbidden\""), "\(other.body)")
    let missing = try upgrade("pantry", token: "reader")
    #expect(missing.status == 404)
    #expect(missing.body.contains("\"not-found\""), "\(missing.body)")
    let dots = try upgrade("..", token: "writer")
    #expect(dots.status == 400 || dots.status == 404, "\(dots)")
    // An allowed upgrade still upgrades.
    let allowed = try RawTCP(port: process.port)
    allowed.send(
      "GET /v1/lists/groceries/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer writer\r\n\r\n")
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { recv(allowed.descriptor, $0.baseAddress, $0.count, 0) }
    #expect(String(decoding: buffer[0..<max(0, count)], as: UTF8.self).hasPrefix("HTTP/1.1 101"))
    allowed.shutdown()
    #expect(process.log.contains("request refused"))
  }

  @Test func framesBreakingRFC6455AreClosedWith1002() async throws {
    let server = try await TestServer.start(policy: Self.policy)
    func upgraded() throws -> RawTCP {
      let connection = try RawTCP(port: server.port)
      connection.send(
        "GET /v1/lists/rfc/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer alice\r\n\r\n")
      return connection
    }
    let closeFrame: [UInt8] = [0x88, 0x02, 0x03, 0xEA]
    // Unmasked: a binary frame of 3 bytes with the mask bit clear.
    let unmasked = try upgraded()
    unmasked.send([0x82, 0x03, 0x01, 0x02, 0x03])
    let reply = try #require(unmasked.readUntilClosed(within: 10), "an unmasked frame did not close the connection")
    #expect(Array(reply.suffix(4)) == closeFrame, "\(reply.suffix(8))")
    // A 64-bit length of 2^64 - 1.
    let huge = try upgraded()
    huge.send([0x82, 0xFF] + [UInt8](repeating: 0xFF, count: 8) + [1, 2, 3, 4])
    let hugeReply = try #require(huge.readUntilClosed(within: 10), "a length of 2^64 - 1 did not close the connection")
    #expect(Array(hugeReply.suffix(4)) == closeFrame, "\(hugeReply.suffix(8))")
    // A masked frame in the same stream still works (a hello gets a welcome).
    let good = try Self.nonReadingSession(port: server.port, list: "rfc", token: "alice")
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var received: [UInt8] = []
    let deadline = Date().addingTimeInterval(10)
    func bodyStart() -> Int? {
      guard received.count >= 4 else { return nil }
      return (0...(received.count - 4)).first { received[$0..<($0 + 4)] == [13, 10, 13, 10] }.map { $0 + 4 }
    }
    while (bodyStart().map { received.count <= $0 } ?? true), Date() < deadline {
      let count = buffer.withUnsafeMutableBytes { recv(good.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      if count > 0 { received += buffer[0..<count] } else { try await Task.sleep(for: .milliseconds(20)) }
    }
    #expect(String(decoding: received.prefix(12), as: UTF8.self) == "HTTP/1.1 101")
    let start = try #require(bodyStart())
    #expect(received.count > start && received[start] == 0x82, "no binary frame after the upgrade")
    good.shutdown()
    try await server.stop()
    server.removeFiles()
  }

  // MARK: Logs

  @Test func clientTextCannotForgeALogLine() async throws {
    let directory = try TestServer.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let process = try ServerProcess.start(data: data)
    defer { _ = process.terminate() }
    let reply = try await HTTPProbe.get(
      "http://\(process.baseURL)/v1/lists/groceries?version=%0A2026-12-02T00:00:00%2B0000%20error%20FORGED%00nul")
    #expect(reply.status == 400 || reply.status == 404)
    try await Task.sleep(for: .milliseconds(200))
    let lines = process.log.split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("2026-12-02T00:00:00+0000 error FORGED") }, "\(lines)")
    #expect(!process.log.contains("\u{0}"))
    #expect(EscapingLogHandler<SwiftLogNoOpLogHandler>.escape("a\nb\u{0}c\\d") == "a\\nb\\u{0}c\\\\d")
  }

  /// `serve --metrics` answers `GET /metrics` in Prometheus' text format with the server's
  /// instruments; without the flag there is no such route.
  @Test func metricsAreServedInPrometheusTextFormatWhenAskedFor() async throws {
    let directory = try TestServer.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let withMetrics = try ServerProcess.start(data: data, arguments: ["--metrics"])
    defer { _ = withMetrics.terminate() }
    _ = try await HTTPProbe.get("http://\(withMetrics.baseURL)/v1/lists/groceries")
    let reply = try await HTTPProbe.get("http://\(withMetrics.baseURL)/metrics")
    #expect(reply.status == 200)
    #expect(reply.text.contains("# TYPE listsync_connected_clients gauge"), "\(reply.text)")
    #expect(reply.text.contains("listsync_sessions_opened_total"), "\(reply.text)")
    _ = withMetrics.terminate()
    let without = try ServerProcess.start(data: data)
    defer { _ = without.terminate() }
    #expect(try await HTTPProbe.get("http://\(without.baseURL)/metrics").status == 404)
  }

  /// A brief fuzz run: mutated and random frames through the message reader and the batch
  /// decoder end in a typed error or a value, never a trap.
  @Test func mutatedFramesNeverTrapTheReaders() throws {
    let replica = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 3), listID: 8, base: SyncWorkload.base(items: 3))
    var workload = SyncWorkload(seed: 11, client: 3)
    for _ in 0..<20 { try workload.edit(replica) }
    let batch = try replica.batch(since: ReplicaVersionVector(), codec: TestClient.codec)
    let seeds: [[UInt8]] = [
      SyncMessage.push(request: 1, batch: batch).encoded(), SyncMessage.commits(batch).encoded(),
      SyncMessage.hello(version: 1, vector: replica.versionVector, genesis: nil).encoded(),
    ]
    var random = SyncWorkloadRandom(seed: 99)
    let steps = Int(ProcessInfo.processInfo.environment["LISTJOURNAL_PROPERTY_STEPS"] ?? "") ?? 3000
    var decoded = 0
    for step in 0..<steps {
      var frame = seeds[step % seeds.count]
      for _ in 0..<(1 + Int(random.next() % 4)) {
        guard !frame.isEmpty else { break }
        let at = Int(random.next() % UInt64(frame.count))
        switch random.next() % 4 {
        case 0: frame[at] ^= UInt8(truncatingIfNeeded: random.next() | 1)
        case 1: frame.removeSubrange(at...)
        case 2: frame.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
        default: frame[at] = 0xFF
        }
      }
      if step % 10 == 0 { frame = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
      guard let message = try? SyncMessage(decoding: frame) else { continue }
      switch message {
      case .push(_, let mutated), .commits(let mutated):
        if (try? mutated.commits(codec: TestClient.codec)) != nil { decoded += 1 }
      default: break
      }
    }
    // The unmutated seeds decode: the run exercised the decoder past its header checks.
    #expect(try batch.commits(codec: TestClient.codec).commits.count == replica.commitCount && replica.commitCount > 0)
    _ = decoded
  }

  @Test func dotNamesAreNotListNames() {
    #expect(!SyncHub.isValidListName("."))
    #expect(!SyncHub.isValidListName(".."))
    #expect(SyncHub.isValidListName("...") && SyncHub.isValidListName(".hidden"))
  }
}

/// A `TestServer`-shaped handle on a server child process, for `RawSession`.
struct FakeServer {
  let port: Int
  var url: String { "ws://127.0.0.1:\(port)" }
  var http: String { "http://127.0.0.1:\(port)" }
}
