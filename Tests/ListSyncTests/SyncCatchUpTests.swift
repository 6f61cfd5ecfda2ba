import ListHistory
import ListLocking
import ListReplica
import ListState
@testable import ListSync
import TestSupport
import Testing

/// Catch-up in pages: a session joining a list far larger than its byte bound is sent the list
/// a frame at a time as its socket drains, never holding more than the bound queued, while other
/// clients push; it ends with every stored commit once, in storage order, and the same list.
@Suite struct SyncCatchUpTests {
  /// Random letters: zstd saves a quarter of them, so the stored commits stay large.
  static func text(_ count: Int, using random: inout SeededRandom) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    return String(decoding: (0..<count).map { _ in alphabet[Int(random.next() & 63)] }, as: UTF8.self)
  }

  /// A slow socket: it takes a frame every `delay`, and after its first `open` frames none
  /// until ``release()``, so the test knows the session is mid catch-up meanwhile.
  final class SlowSocket: Sendable {
    let frames = ListMutex<[SyncMessage]>([])
    let closed = ListMutex<UInt16?>(nil)
    let delay: Duration
    let open: Int
    let released = ListMutex(false)

    init(delay: Duration, open: Int) {
      self.delay = delay
      self.open = open
    }

    func take(_ frame: [UInt8]) async {
      while frames.withLock({ $0.count }) >= open, !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
      try? await Task.sleep(for: delay)
      if let message = try? SyncMessage(decoding: frame) { frames.withLock { $0.append(message) } }
    }

    func release() { released.withLock { $0 = true } }

    /// Waits until the answer to `request` arrived.
    func wait(for request: UInt64) async throws {
      try await withDeadline("the answer to \(request)") {
        while !self.frames.withLock({ frames in
          frames.contains { if case .ack(request, _, _) = $0 { true } else if case .error(request, _, _) = $0 { true } else { false } }
        }) {
          try await Task.sleep(for: .milliseconds(5))
        }
      }
    }
  }

  @Test func aJoinerOfALargeListHoldsAtMostTheBoundQueuedAndConverges() async throws {
    var configuration = SyncHubConfiguration()
    configuration.maxQueuedBytes = 1 << 20
    configuration.maxCommitsFrameBytes = 256 << 10
    let fixture = try SyncFixture(configuration: configuration)
    let codec = SyncFixture.codec
    var random = SeededRandom(seed: 0x39)

    // 24 MiB of commits of 48 KiB each, pushed in frames under the frame limit.
    let writer = Replica(replica: ReplicaID(rawValue: 1), listID: 7)
    try writer.transaction { tx in try tx.appendSections([TestSection("S")]) }
    let seeding = try await SyncHubTests.greeted(fixture, genesis: try SyncHubTests.genesis(writer))
    var request: UInt64 = 0
    var sent = ReplicaVersionVector()
    for index in 0..<512 {
      let content = Self.text(48 << 10, using: &random)
      try writer.transaction { tx in try tx.appendItems([TestItem("big\(index)", content: content)], toSection: "S") }
      if index % 64 == 63 {
        request += 1
        try await seeding.send(.push(request: request, batch: try writer.batch(since: sent, codec: codec)))
        guard case .ack(request, _, _)? = try await SyncHubTests.answer(to: request, on: seeding).0 else {
          Issue.record("seeding push \(request) was not acknowledged")
          return
        }
        sent = writer.versionVector
      }
    }
    let seeded = try await fixture.storage.commits(of: "groceries", after: 0, limit: .max)
    let seededBytes = seeded.reduce(0) { $0 + $1.bytes.count }
    #expect(seededBytes > 24 << 20, "the list is \(seededBytes) bytes")

    // The joiner's socket takes a frame every 5 ms and stalls after a few: the queue, not the
    // hub, sets the pace.
    let socket = SlowSocket(delay: .milliseconds(5), open: 6)
    let joiner = try await fixture.hub.openSession(
      list: "groceries", access: .write, send: { frame in await socket.take(frame) },
      close: { code, _ in socket.closed.withLock { $0 = code } })
    #expect(await joiner.receive(SyncMessage.hello(version: 1, vector: ReplicaVersionVector(), genesis: nil).encoded()) == .keepOpen)

    // While it catches up, another client pushes small commits, and the joiner pushes its own.
    let tablet = Runner(fixture.client(Replica(replica: ReplicaID(rawValue: 2), listID: 7)))
    try await withDeadline("the tablet's hello") { try await tablet.client.waitUntilSynced() }
    let genesis = try await SyncHubTests.genesis(writer)
    let own = Replica(replica: ReplicaID(rawValue: 3), listID: 7, base: try genesis.decodeBase(codec: codec))
    var ownSent = ReplicaVersionVector()
    var ownRequests: [UInt64] = []
    for index in 0..<30 {
      _ = try await tablet.client.transaction { tx in
        if index == 0 { try tx.appendSections([TestSection("T")]) }
        try tx.appendItems([TestItem("t\(index)")], toSection: "T")
      }
      if index % 10 == 0 {
        try own.transaction { tx in try tx.appendSections([TestSection("J\(index)")]) }
        request += 1
        let push = SyncMessage.push(request: request, batch: try own.batch(since: ownSent, codec: codec))
        #expect(await joiner.receive(push.encoded()) == .keepOpen)
        ownRequests.append(request)
        ownSent = own.versionVector
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    try await withDeadline("the tablet's pushes") { try await tablet.client.waitUntilSynced() }
    let hosted = fixture.hub.state.withLock { $0.lists["groceries"] }
    #expect(await hosted?.catchingUp.isEmpty == false, "the pushes ran during catch-up")
    #expect(joiner.queue.queuedBytes > configuration.maxQueuedBytes / 2, "a stalled socket fills the queue to its bound")
    #expect(joiner.queue.queuedBytes <= configuration.maxQueuedBytes)
    socket.release()

    // An empty push is a barrier: its ack comes after every commit stored before it.
    request += 1
    let barrier = request
    let empty = try ReplicaBatch(commits: [ReplicaCommit<TestSection, TestItem>](), listID: 7, codec: codec)
    #expect(await joiner.receive(SyncMessage.push(request: barrier, batch: empty).encoded()) == .keepOpen)
    try await socket.wait(for: barrier)

    #expect(joiner.queue.peakQueuedBytes <= configuration.maxQueuedBytes, "peak \(joiner.queue.peakQueuedBytes) bytes queued")
    #expect(socket.closed.withLock { $0 } == nil, "the joiner was not dropped")
    let frames = socket.frames.withLock { $0 }
    guard case .welcome(let welcomed, _, _)? = frames.first else {
      Issue.record("the first frame is not welcome")
      return
    }
    let joined = Replica(replica: ReplicaID(rawValue: 3), listID: welcomed.listID, base: try welcomed.decodeBase(codec: codec))
    var received: [ReplicaCommitID] = []
    var commitsFrames = 0
    var answered: [UInt64] = []
    for frame in frames.dropFirst() {
      switch frame {
      case .commits(let batch):
        commitsFrames += 1
        received += try batch.commits(codec: codec).commits.map(\.id)
        _ = try joined.receive(batch, codec: codec)
      case .ack(let request, _, _): answered.append(request)
      default: Issue.record("unexpected \(frame.typeName) frame")
      }
    }
    _ = try joined.receive(own.commits)
    // Every stored commit but the joiner's own, once each, in storage order.
    let stored = try await fixture.storage.commits(of: "groceries", after: 0, limit: .max)
    #expect(received == stored.map(\.id).filter { $0.replica != own.replicaID })
    #expect(commitsFrames > seededBytes / configuration.maxCommitsFrameBytes, "\(commitsFrames) frames")
    #expect(Set(answered) == Set(ownRequests + [barrier]) && answered.count == 4, "answered \(answered)")
    guard case .ack(barrier, _, _)? = frames.last else {
      Issue.record("the barrier's ack is not the last frame")
      return
    }

    let reference = Replica(replica: ReplicaID(rawValue: 9), listID: 7, base: try genesis.decodeBase(codec: codec))
    var decoder = codec
    for commit in stored { _ = try reference.receive(try decoder.decodeReplicaCommits(commit.bytes)) }
    #expect(joined.versionVector == reference.versionVector)
    #expect(joined.snapshot == reference.snapshot)
    // The joiner's pushes are stored (answered): the tablet's next barrier brings them.
    try await withDeadline("the tablet's catch-up") { try await tablet.client.waitUntilSynced() }
    #expect(tablet.client.replica.snapshot == reference.snapshot)

    await joiner.close()
    await tablet.stop()
    await fixture.hub.shutdown()
  }
}
