import JournalFormat
import JournalFormatTesting
import ListHistory
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

typealias Replica = ListReplica<TestSection, TestItem>
typealias Client = SyncClient<TestSection, TestItem>

/// A hub over file storage on an in-memory file system, and helpers to make clients of it.
struct SyncFixture {
  let fileSystem: FaultInjectingFileSystem
  let storage: SyncFileStorage
  let hub: SyncHub
  let transport: InProcessSyncTransport

  static var codec: HistoryCodec<TestSection, TestItem> { HistoryCodec() }

  init(
    fileSystem: FaultInjectingFileSystem = FaultInjectingFileSystem(), configuration: SyncHubConfiguration = SyncHubConfiguration(),
    observer: (any SyncHubObserver)? = nil
  ) throws {
    self.fileSystem = fileSystem
    var options = JournalOptions()
    options.fileSystem = fileSystem
    storage = try SyncFileStorage(directory: "/data", options: options, replica: ReplicaID(rawValue: 0x5E))
    hub = SyncHub(storage: storage, configuration: configuration, observer: observer)
    transport = InProcessSyncTransport(hub: hub)
  }

  func client(_ replica: Replica, list: String = "groceries", token: String? = nil, transport: (any SyncTransport)? = nil)
    -> Client
  {
    var configuration = SyncClientConfiguration()
    configuration.initialBackoff = .milliseconds(2)
    configuration.maxBackoff = .milliseconds(20)
    return Client(
      replica: replica, codec: Self.codec, transport: transport ?? self.transport,
      endpoint: SyncEndpoint(url: "local:", list: list, token: token), configuration: configuration)
  }
}

/// A client's run loop as a task the test can stop and restart.
final class Runner: Sendable {
  let client: Client
  let task: Task<Void, any Error>

  init(_ client: Client) {
    self.client = client
    task = Task { try await client.run() }
  }

  func stop() async {
    task.cancel()
    _ = await task.result
  }
}

/// Runs `body` with a deadline, failing the test instead of hanging: generous, as the whole
/// suite on two cores can starve these asynchronous tests for minutes.
func withDeadline<T: Sendable>(
  seconds: Double = 900, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      return nil
    }
    guard let first = try await group.next(), let value = first else {
      group.cancelAll()
      throw DeadlineExceeded(what: what)
    }
    group.cancelAll()
    return value
  }
}

struct DeadlineExceeded: Error, CustomStringConvertible {
  var what: String
  var description: String { "timed out: \(what)" }
}

/// A raw connection for protocol-level tests: frames in and out of a session.
struct RawConnection {
  let channel: any SyncChannel

  static func open(_ fixture: SyncFixture, list: String = "groceries", token: String? = nil) async throws -> RawConnection {
    RawConnection(channel: try await fixture.transport.connect(to: "local:/v1/lists/\(list)/sync", bearer: token))
  }

  func send(_ message: SyncMessage) async throws { try await channel.send(message.encoded()) }

  func next() async throws -> SyncMessage? {
    guard let frame = try await channel.receive() else { return nil }
    return try SyncMessage(decoding: frame)
  }
}
