import Foundation
import ListReplica
import ListState
import ListSync
import ListSyncWebSocketClient
import SyncWorkload

/// One app's side in the end-to-end tests: a ``SyncClient`` over real WebSockets, editing with
/// the mixed workload, going offline (its run cancelled) and online again.
final class TestClient: @unchecked Sendable {
  typealias Client = SyncClient<String, SyncRow>
  let client: Client
  let name: String
  private(set) var workload: SyncWorkload
  private var task: Task<Void, any Error>?

  init(_ client: Client, name: String, seed: UInt64, index: Int) {
    self.client = client
    self.name = name
    self.workload = SyncWorkload(seed: seed, client: index)
  }

  static let codec = HistoryCodec<String, SyncRow>()

  static var clientConfiguration: SyncClientConfiguration {
    var configuration = SyncClientConfiguration()
    configuration.initialBackoff = .milliseconds(20)
    configuration.maxBackoff = .milliseconds(500)
    return configuration
  }

  /// A client of a new replica of the list that `base` starts (the first one creates it).
  static func creating(
    list: String, url: String, token: String?, listID: UInt64, base: ListSnapshot<String, SyncRow>, seed: UInt64, index: Int
  ) -> TestClient {
    let replica = ListReplica<String, SyncRow>(
      replica: ReplicaID(rawValue: UInt64(index + 1)), listID: listID, base: base)
    return TestClient(
      Client(
        replica: replica, codec: codec, transport: WebSocketSyncTransport(),
        endpoint: SyncEndpoint(url: url, list: list, token: token), configuration: clientConfiguration),
      name: "client \(index)", seed: seed, index: index)
  }

  /// A client that joins the server's list (genesis and every commit from the server).
  static func joining(list: String, url: String, token: String?, seed: UInt64, index: Int) async throws -> TestClient {
    let client = try await Client.join(
      transport: WebSocketSyncTransport(), endpoint: SyncEndpoint(url: url, list: list, token: token), codec: codec,
      replica: ReplicaID(rawValue: UInt64(index + 1)), configuration: clientConfiguration)
    return TestClient(client, name: "client \(index)", seed: seed, index: index)
  }

  var isOnline: Bool { task != nil }

  func goOnline() {
    guard task == nil else { return }
    let client = self.client
    task = Task { try await client.run() }
  }

  func goOffline() async {
    guard let task else { return }
    task.cancel()
    _ = try? await task.value
    self.task = nil
  }

  /// `count` commits of the workload (pushed at once when online).
  func edit(_ count: Int) async throws {
    for _ in 0..<count { try workload.edit(client.replica) }
    if isOnline { try? await client.push() }
  }

  /// Waits until synced, failing after `seconds`.
  ///
  /// A `waitUntilSynced` that has not returned after 10 s is abandoned and asked again (and the
  /// stall is printed): one that lost its acknowledgement with a dropped connection can wait
  /// forever, and a hung await must fail the test, not hang it.
  func sync(within seconds: Double = 90) async throws {
    let client = self.client
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      let attempt = Task { try await client.waitUntilSynced() }
      let done = DoneFlag()
      Task {
        _ = try? await attempt.value
        done.set()
      }
      let giveUp = min(deadline, ContinuousClock.now + .seconds(10))
      while !done.isSet, ContinuousClock.now < giveUp { try await Task.sleep(for: .milliseconds(10)) }
      if done.isSet { return try await attempt.value }
      attempt.cancel()
      print("note: \(name): waitUntilSynced stalled for 10 s (status \(client.status)); asking again")
    }
    throw TestTimeout(what: "\(name) to sync (status \(client.status))")
  }

  var snapshot: ListSnapshot<String, SyncRow> { client.replica.snapshot }
}

/// A wait in a test that took too long.
struct TestTimeout: Error, CustomStringConvertible {
  var what: String
  var description: String { "timed out waiting for \(what)" }
}

/// A flag set once, read from any thread.
final class DoneFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
