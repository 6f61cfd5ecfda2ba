import ArgumentParser
import Foundation
import ListSync
import ListSyncHummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle

/// `listjournal-server serve`: hosts lists until SIGTERM or SIGINT, then shuts down gracefully
/// (in-flight appends finish and are acked, sockets close with 1001, the storage closes) and
/// exits 0.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Host shared lists: WebSocket sync at /v1/lists/NAME/sync, JSON reads, /health.",
    discussion: """
      Lists are kept as replica journals in the --data folder (created if missing), one file per \
      list, or with --postgres in a PostgreSQL database that several instances can share (clients \
      of different instances see each other's commits). Clients authenticate with `Authorization: Bearer TOKEN`; --tokens names a JSON file \
      of grants: {"tokens": [{"token": "…", "lists": "*" or ["groceries"], "access": "write" or \
      "read"}]}. Without --tokens every client may read and write every list: allowed on a loopback \
      address only, unless --allow-anonymous says that is meant. \
      Once listening, the server prints `listening on HOST:PORT` on stdout (useful with --port 0).

      Example:
        listjournal-server serve --port 8080 --data lists --tokens tokens.json
        listjournal-server serve --port 8081 --postgres postgres://sync@127.0.0.1/lists --tokens tokens.json
      """)

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0: any free port, printed once listening).")
  var port = 8080

  @Option(help: "The folder holding one journal per list.")
  var data = "lists"

  @Option(
    help: ArgumentHelp(
      "A postgres:// URL: lists and commits in PostgreSQL tables instead of --data, shared by every instance using it.",
      valueName: "url"))
  var postgres: String?

  @Option(help: "A JSON file of bearer tokens and the lists they read or write.")
  var tokens: String?

  @Flag(help: "Serve without --tokens on an address other than loopback: anyone who reaches it reads and writes every list.")
  var allowAnonymous = false

  @Flag(help: "Serve GET /metrics in Prometheus' text format: the server's counters, without a token.")
  var metrics = false

  @Option(help: "The largest message a client may send, in bytes.")
  var maxFrameBytes = 16 << 20

  @Option(help: "The most commits one push may carry.")
  var maxCommitsPerPush = 65_536

  @Option(help: "How long an append waits to gather other pushes into one fsync, in milliseconds.")
  var groupCommitDelayMs = 0

  @Option(help: "Frames queued for one slow client before it is disconnected (it catches up on reconnect).")
  var maxQueuedFrames = 4096

  @Option(help: "Bytes queued for one slow client before it is disconnected.")
  var maxQueuedBytes = 64 << 20

  @Option(help: "The most bytes one push's commits may decompress to.")
  var maxDecodedBatchBytes = 32 << 20

  @Option(help: "The most bytes one commit may take, encoded alone.")
  var maxCommitBytes = 1 << 20

  @Option(help: "The most UTF-8 bytes of a commit's label.")
  var maxLabelBytes = 64 << 10

  @Option(help: "The most operations one commit may carry.")
  var maxOperationsPerCommit = 100_000

  @Option(help: "How far above the list's highest Lamport clock a pushed commit's clock may be.")
  var maxClockLead: UInt64 = 1 << 32

  @Option(help: "Seconds a new connection has to send its whole request head.")
  var headerTimeout = 10

  @Option(help: "Seconds an HTTP connection may stay idle between requests.")
  var idleTimeout = 60

  @Option(help: "Seconds a list with no client and no read stays in memory before it is unloaded (0: never).")
  var unloadIdleListsAfter = 300

  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
  var logLevel = "info"

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port (0 to 65535)") }
    guard maxFrameBytes >= 1024 else { throw ValidationError("--max-frame-bytes \(maxFrameBytes) is below 1024") }
    guard maxCommitsPerPush >= 1 else { throw ValidationError("--max-commits-per-push must be at least 1") }
    guard groupCommitDelayMs >= 0 else { throw ValidationError("--group-commit-delay-ms must be 0 or more") }
    guard unloadIdleListsAfter >= 0 else { throw ValidationError("--unload-idle-lists-after must be 0 or more") }
    guard maxQueuedFrames >= 1 else { throw ValidationError("--max-queued-frames must be at least 1") }
    for (name, value) in [
      ("--max-queued-bytes", maxQueuedBytes), ("--max-decoded-batch-bytes", maxDecodedBatchBytes),
      ("--max-commit-bytes", maxCommitBytes), ("--max-label-bytes", maxLabelBytes),
      ("--max-operations-per-commit", maxOperationsPerCommit), ("--header-timeout", headerTimeout),
      ("--idle-timeout", idleTimeout),
    ] where value < 1 {
      throw ValidationError("\(name) \(value) must be at least 1")
    }
    if tokens == nil, !allowAnonymous, !Self.isLoopback(host) {
      throw ValidationError(
        "--host \(host) without --tokens would let anyone who reaches it read and write every list; give --tokens FILE, or --allow-anonymous if that is meant")
    }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError("--log-level '\(logLevel)' is not one of trace, debug, info, notice, warning, error, critical")
    }
  }

  /// Whether `host` names this machine only: `localhost`, 127.0.0.0/8 or `::1`.
  static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" || host == "[::1]" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }

  func run() async throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    LoggingSystem.bootstrap { label in
      // Escaped: logged values include text clients sent.
      var handler = EscapingLogHandler(StreamLogHandler.standardError(label: label))
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "listjournal-server")
    var hubConfiguration = SyncHubConfiguration()
    hubConfiguration.maxFrameBytes = maxFrameBytes
    hubConfiguration.maxCommitsPerPush = maxCommitsPerPush
    hubConfiguration.groupCommitDelay = .milliseconds(groupCommitDelayMs)
    hubConfiguration.maxQueuedFrames = maxQueuedFrames
    hubConfiguration.maxQueuedBytes = maxQueuedBytes
    hubConfiguration.maxCommitBytes = maxCommitBytes
    hubConfiguration.batchLimits.maxDecodedBytes = maxDecodedBatchBytes
    hubConfiguration.batchLimits.maxLabelBytes = maxLabelBytes
    hubConfiguration.batchLimits.maxOperationsPerCommit = maxOperationsPerCommit
    hubConfiguration.batchLimits.maxClockLead = maxClockLead
    hubConfiguration.idleListTimeout = unloadIdleListsAfter > 0 ? .seconds(unloadIdleListsAfter) : nil
    if let tokens {
      do {
        hubConfiguration.accessPolicy = try SyncAccessPolicy.load(from: tokens)
      } catch {
        throw ServerFailure("\(error)")
      }
    } else {
      logger.warning("no --tokens: every client may read and write every list")
    }
    let (storage, storageServices) = try makeStorage(logger: logger)
    var metricsText: (@Sendable () -> String)?
    if metrics {
      // Before the observer makes its instruments: they bind to the factory bootstrapped then.
      let registry = PrometheusCollectorRegistry()
      MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
      metricsText = {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
      }
    }
    let observer = SyncServerObserver(logger: logger)
    let hub = SyncHub(storage: storage, configuration: hubConfiguration, observer: observer)
    var serverConfiguration = SyncServerConfiguration(
      host: host, port: port, maxFrameBytes: maxFrameBytes, headerTimeout: .seconds(headerTimeout),
      idleTimeout: .seconds(idleTimeout))
    serverConfiguration.metrics = metricsText
    let server = SyncServer(
      hub: hub,
      configuration: serverConfiguration,
      logger: logger,
      observer: observer)
    let host = self.host
    let group = ServiceGroup(
      configuration: .init(
        // The storage first: a graceful shutdown stops services in reverse order, so it stops last.
        services: (storageServices + server.services { port in
          // Unbuffered, so a parent process reading the pipe sees the line at once.
          FileHandle.standardOutput.write(Data("listening on \(host):\(port)\n".utf8))
        }).map { .init(service: $0) },
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger))
    try await group.run()
  }
}

/// A startup failure, printed as `error: …` with exit code 1.
struct ServerFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
