import ListHistory
import ListLocking
import ListReplica
import ListSync
import TestSupport
import Testing

/// Lists with no session and no read leave the hub's memory after the idle timeout and come back
/// from storage whole: the same position, vector and commits, duplicates still recognised.
@Suite struct SyncIdleListTests {
  final class Unloads: SyncHubObserver {
    let lists = ListMutex<[String]>([])
    func listUnloaded(list: String) { lists.withLock { $0.append(list) } }
  }

  static func waitUntilUnloaded(_ hub: SyncHub) async throws {
    try await withDeadline("the idle list was not unloaded") {
      while hub.loadedListCount != 0 { try await Task.sleep(for: .milliseconds(5)) }
    }
  }

  @Test func anIdleListLeavesMemoryAndComesBackWhole() async throws {
    var configuration = SyncHubConfiguration()
    configuration.idleListTimeout = .milliseconds(20)
    let observer = Unloads()
    let fixture = try SyncFixture(configuration: configuration, observer: observer)
    let phone = try SyncHubTests.replica(1, items: ["a", "b"])
    let connection = try await SyncHubTests.greeted(fixture, genesis: try SyncHubTests.genesis(phone))
    try await connection.send(.push(request: 1, batch: try SyncHubTests.batch(phone)))
    #expect(try await SyncHubTests.answer(to: 1, on: connection).0 == .ack(request: 1, stored: 3, duplicates: 0))

    // A list in use stays loaded however long it is quiet.
    try await Task.sleep(for: .milliseconds(100))
    #expect(fixture.hub.loadedListCount == 1)
    await connection.channel.close()
    try await Self.waitUntilUnloaded(fixture.hub)
    #expect(observer.lists.withLock { $0 } == ["groceries"])

    // Loaded again on the next session: the same position and vector, a repeated push is all
    // duplicates, and a client with nothing catches up on every commit once.
    let again = try await RawConnection.open(fixture)
    try await again.send(.hello(version: 1, vector: ReplicaVersionVector(), genesis: nil))
    guard case .welcome(_, let position, let vector) = try await again.next() else {
      throw DeadlineExceeded(what: "welcome")
    }
    #expect(position == 3)
    #expect(vector == phone.versionVector)
    try await again.send(.push(request: 2, batch: try SyncHubTests.batch(phone)))
    let (answer, batches) = try await SyncHubTests.answer(to: 2, on: again)
    #expect(answer == .ack(request: 2, stored: 0, duplicates: 3))
    #expect(try batches.flatMap { try $0.commits(codec: SyncFixture.codec).commits } == phone.commits)

    // New commits after the reload get the next positions.
    try phone.transaction { tx in try tx.appendItems([TestItem("c")], toSection: "S") }
    try await again.send(.push(request: 3, batch: try SyncHubTests.batch(phone, since: vector)))
    #expect(try await SyncHubTests.answer(to: 3, on: again).0 == .ack(request: 3, stored: 1, duplicates: 0))
    #expect(try await fixture.storage.lastPosition(of: "groceries") == 4)
    await again.channel.close()
    try await Self.waitUntilUnloaded(fixture.hub)

    // A read loads it too, and answers from storage after the reload.
    let state = try await fixture.hub.readState(list: "groceries", version: nil)
    #expect(state.status == 200)
    #expect(try ReadJSON.state(state.body) == ReadJSON.state(of: phone.snapshot))
    try await Self.waitUntilUnloaded(fixture.hub)
    #expect(observer.lists.withLock { $0 }.count == 3)
    await fixture.hub.shutdown()
  }

  @Test func withoutATimeoutListsStayLoaded() async throws {
    var configuration = SyncHubConfiguration()
    configuration.idleListTimeout = nil
    let fixture = try SyncFixture(configuration: configuration)
    let phone = try SyncHubTests.replica(1, items: ["a"])
    let connection = try await SyncHubTests.greeted(fixture, genesis: try SyncHubTests.genesis(phone))
    await connection.channel.close()
    try await Task.sleep(for: .milliseconds(50))
    #expect(fixture.hub.loadedListCount == 1)
    await fixture.hub.shutdown()
  }
}
