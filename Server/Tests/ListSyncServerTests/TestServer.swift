import Foundation
import ListSync
import ListSyncHummingbird
import Logging
import ServiceLifecycle
import Testing

/// A sync server in this process on a free loopback port, on journal files in a temporary folder,
/// run by a `ServiceGroup` as the executable runs it.
final class TestServer: Sendable {
  let server: SyncServer
  let port: Int
  let directory: URL
  let group: ServiceGroup
  let task: Task<Void, any Error>

  var url: String { "ws://127.0.0.1:\(port)" }
  var http: String { "http://127.0.0.1:\(port)" }
  var hub: SyncHub { server.hub }

  private init(server: SyncServer, port: Int, directory: URL, group: ServiceGroup, task: Task<Void, any Error>) {
    self.server = server
    self.port = port
    self.directory = directory
    self.group = group
    self.task = task
  }

  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("listsync-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Starts a server on `directory` (a new temporary one by default).
  static func start(
    directory: URL? = nil, policy: SyncAccessPolicy = .open, maxFrameBytes: Int = 16 << 20,
    configure: (inout SyncHubConfiguration) -> Void = { _ in }
  ) async throws -> TestServer {
    let directory = try directory ?? temporaryDirectory()
    var logger = Logger(label: "test-server")
    logger.logLevel = ProcessInfo.processInfo.environment["LISTSYNC_TEST_LOG"] != nil ? .debug : .critical
    var configuration = SyncHubConfiguration()
    configuration.accessPolicy = policy
    configuration.maxFrameBytes = maxFrameBytes
    configure(&configuration)
    let observer = SyncServerObserver(logger: logger)
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let hub = SyncHub(storage: try SyncFileStorage(directory: data.path), configuration: configuration, observer: observer)
    let server = SyncServer(
      hub: hub, configuration: .init(host: "127.0.0.1", port: 0, maxFrameBytes: maxFrameBytes), logger: logger,
      observer: observer)
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let group = ServiceGroup(
      configuration: .init(
        services: server.services { port in continuation.yield(port) }.map { .init(service: $0) }, logger: logger))
    let task = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    return TestServer(server: server, port: port, directory: directory, group: group, task: task)
  }

  /// Graceful shutdown, as on SIGTERM; waits until the group has stopped.
  func stop() async throws {
    await group.triggerGracefulShutdown()
    try await task.value
  }

  func removeFiles() {
    try? FileManager.default.removeItem(at: directory)
  }
}
