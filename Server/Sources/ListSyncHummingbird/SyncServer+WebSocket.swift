import Hummingbird
import HummingbirdWebSocket
import ListSync
import Logging
import NIOCore
import NIOWebSocket

extension SyncServer {
  /// `GET /v1/lists/{list}/sync`: the token is checked before the upgrade (401, 403, 404), then
  /// every binary message goes to the list's ``SyncSession``.
  func addSyncRoute(to router: Router<SyncRequestContext>) {
    router.ws(
      "/v1/lists/:list/sync",
      shouldUpgrade: { [self] request, context in
        let list = try listName(context)
        _ = try await authorizeSync(request: request, list: list, peer: context.peer)
        guard request.headers[.upgrade]?.lowercased() == "websocket" else {
          throw refuse(
            SyncServerError(.upgradeRequired, code: "upgrade-required", "the sync endpoint takes a WebSocket upgrade"),
            list: list, peer: context.peer)
        }
        guard !connections.isDraining else {
          throw refuse(
            SyncServerError(.serviceUnavailable, code: "shutting-down", "the server is shutting down"), list: list,
            peer: context.peer)
        }
        return .upgrade([:])
      },
      onUpgrade: { [self] inbound, outbound, context in
        let list = context.requestContext.parameters.get("list") ?? ""
        let peer = context.requestContext.peer
        // Checked before the upgrade; asked again for the access level (the policy is immutable).
        guard let access = try? await authorizeSync(request: context.request, list: list, peer: peer) else { return }
        await serve(list: list, access: access, peer: peer, inbound: inbound, outbound: outbound)
      })
  }

  /// Runs one WebSocket connection: opens the hub's session, hands it each message, closes.
  func serve(
    list: String, access: SyncAccess, peer: String, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
  ) async {
    var logger = self.logger
    logger[metadataKey: "list"] = "\(list)"
    logger[metadataKey: "peer"] = "\(peer)"
    guard let id = connections.add(outbound) else {
      try? await outbound.close(.goingAway, reason: "server shutting down")
      return
    }
    defer { connections.remove(id) }
    let session: SyncSession
    do {
      session = try await hub.openSession(
        list: list, access: access,
        send: { frame in
          // A write fails only once the socket is gone; the session closes when the read loop ends.
          try? await outbound.writeBinaryMessage(ByteBuffer(bytes: frame))
        },
        close: { code, reason in
          // The hub closes a client that fell behind (1008) and every client on shutdown (1001).
          try? await outbound.close(WebSocketErrorCode(codeNumber: Int(code)), reason: reason)
        })
    } catch {
      logger.notice("session refused", metadata: ["reason": "\(error)"])
      let code: SyncErrorCode? =
        switch error {
        case .notHosted: .notHosted
        case .storage: .storage
        case .invalidListName, .badRequest: .malformed
        case .unauthenticated, .forbidden: .malformed
        case .shuttingDown: nil
        }
      if let code {
        try? await outbound.writeBinaryMessage(
          ByteBuffer(bytes: SyncMessage.error(request: 0, code: code, message: error.description).encoded()))
      }
      try? await outbound.close(code == nil ? .goingAway : .policyViolation, reason: error.description)
      return
    }
    logger.debug("session opened")
    let limit = configuration.maxFrameBytes
    var message: [UInt8] = []
    var frames = inbound.makeAsyncIterator()
    reading: while true {
      let frame: WebSocketDataFrame?
      do { frame = try await frames.next() } catch { break reading }
      guard let frame else { break reading }
      switch frame.opcode {
      case .text:
        await finish(session, verdict: await session.receiveText(), outbound: outbound, logger: logger)
        break reading
      case .binary:
        message = Array(frame.data.readableBytesView)
      case .continuation:
        // Past the limit the rest is not kept: the hub refuses the message by its size alone.
        if message.count <= limit { message.append(contentsOf: frame.data.readableBytesView) }
      }
      guard frame.fin || message.count > limit else { continue }
      let verdict = await session.receive(message)
      message = []
      if case .close = verdict {
        await finish(session, verdict: verdict, outbound: outbound, logger: logger)
        break reading
      }
    }
    await session.close()
    logger.debug("session closed")
  }

  /// Closes the socket as the hub's verdict says (its `error` frame has been sent already).
  private func finish(
    _ session: SyncSession, verdict: SyncSessionVerdict, outbound: WebSocketOutboundWriter, logger: Logger
  ) async {
    guard case .close(let code, let reason) = verdict else { return }
    logger.notice("connection closed by the server", metadata: ["reason": "\(reason)", "code": "\(code)"])
    try? await outbound.close(WebSocketErrorCode(codeNumber: Int(code)), reason: reason)
  }
}
