import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import ListSync
import Logging
import NIOCore
import ServiceLifecycle

/// The sync server: Hummingbird routes and WebSocket upgrades in front of a ``SyncHub``, which
/// makes every decision (sessions, access, group commit, fan-out, reads).
///
/// Run it in a `ServiceGroup` with ``services(onRunning:)``: on graceful shutdown (SIGTERM,
/// SIGINT) it refuses new connections, lets the hub finish in-flight appends, closes every
/// WebSocket with 1001 (going away; a socket that takes no close frame is closed outright after
/// ``SyncServerConfiguration/shutdownCloseTimeout``) and closes the storage, then stops listening.
///
/// ```swift
/// let hub = SyncHub(storage: try SyncFileStorage(folder: "lists"))
/// let server = SyncServer(hub: hub, configuration: .init(port: 8080), logger: logger)
/// let group = ServiceGroup(
///   services: server.services(), gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// Routes: `GET /health`, `GET /v1/lists`, `GET /v1/lists/{list}`, `…/log`, `…/diff`, and
/// `GET /v1/lists/{list}/sync` upgraded to a WebSocket (see Documentation/SYNC.md).
///
/// - Complexity: the glue adds O(1) per request and O(message size) per WebSocket message.
public final class SyncServer: Sendable {
  public let hub: SyncHub
  public let configuration: SyncServerConfiguration
  public let logger: Logger
  let observer: SyncServerObserver
  let connections = _SyncConnections()

  public init(hub: SyncHub, configuration: SyncServerConfiguration = .init(), logger: Logger, observer: SyncServerObserver) {
    self.hub = hub
    self.configuration = configuration
    self.logger = logger
    self.observer = observer
  }

  /// The open WebSocket connections.
  public var connectionCount: Int { connections.count }

  /// The Hummingbird application and the service that drains the hub, in the order a
  /// `ServiceGroup` needs them (it shuts services down last to first: the drain runs first).
  ///
  /// - Parameter onRunning: called with the bound port once the server listens.
  public func services(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> [any Service] {
    [makeApplication(onRunning: onRunning), SyncServerDrain(server: self)]
  }

  /// The Hummingbird application alone (no drain on shutdown): for embedding in another app.
  public func makeApplication(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
    let router = Router(context: SyncRequestContext.self)
    addRoutes(to: router)
    addSyncRoute(to: router)
    let logger = self.logger
    let configuration = self.configuration
    let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
      http1: .init(idleTimeout: configuration.idleTimeout._timeAmount),
      ws: .init(
        // One byte over the limit still reaches the hub, which answers `error` (too large)
        // before closing; anything larger is refused by the frame decoder with 1009.
        maxFrameSize: configuration.maxFrameBytes + 1, autoPing: .enabled(timePeriod: .seconds(30)),
        closeTimeout: configuration.closeTimeout))
    let webSocketResponder = router.buildResponder()
    let headTimeout = configuration.headerTimeout._timeAmount
    // Every connection passes the request-head guard first (deadline, size, TLS on a plain port).
    let server = HTTPServerBuilder { responder in
      _GuardedChildChannel(
        base: HTTP1WebSocketUpgradeChannel(
          responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration),
        headTimeout: headTimeout, maxHeadBytes: configuration.maxHeaderBytes, logger: logger,
        refusesUpgrade: { [weak self] uri, authorization in await self?.refusesUpgrade(uri: uri, authorization: authorization) ?? true })
    }
    return Application(
      router: router,
      server: server,
      configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "listjournal-server"),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? 0
        logger.info("listening", metadata: ["host": "\(channel.localAddress?.ipAddress ?? "?")", "port": "\(port)"])
        await onRunning(port)
      },
      logger: logger)
  }

  /// Refuses new connections, flushes the hub (in-flight appends become durable and are acked),
  /// closes every WebSocket with 1001 and closes the storage.
  public func drain() async {
    connections.startDraining()
    logger.info("shutting down", metadata: ["sessions": "\(connections.count)"])
    await hub.shutdown()
    await connections.closeAll(reason: "server shutting down", within: configuration.shutdownCloseTimeout)
    logger.info("storage closed; connections closed")
  }
}

/// Waits for graceful shutdown, then drains the server (see ``SyncServer/drain()``).
struct SyncServerDrain: Service {
  let server: SyncServer

  func run() async throws {
    // Returns when shutdown starts; throws only when the group is cancelled.
    try? await gracefulShutdown()
    await server.drain()
  }
}

extension Duration {
  /// The duration as NIO's time amount.
  var _timeAmount: TimeAmount {
    .nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
  }
}
