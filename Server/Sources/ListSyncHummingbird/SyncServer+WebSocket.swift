import Crypto
import Foundation
import Hummingbird
import HTTPTypes
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
        // A refused upgrade arrives as a plain GET marked by the inspector; it is refused below.
        let refusedUpgrade = request.headers[HTTPField.Name(_UpgradeInspector.refusedUpgradeHeader)!] != nil
        guard request.headers[.upgrade]?.lowercased() == "websocket" || refusedUpgrade else {
          throw refuse(
            SyncServerError(.upgradeRequired, code: "upgrade-required", "the sync endpoint takes a WebSocket upgrade"),
            list: list, peer: context.peer)
        }
        guard !connections.isDraining else {
          throw refuse(
            SyncServerError(.serviceUnavailable, code: "shutting-down", "the server is shutting down"), list: list,
            peer: context.peer)
        }
        guard !refusedUpgrade else {
          throw refuse(
            SyncServerError(.badRequest, code: "bad-request", "the upgrade was refused"), list: list, peer: context.peer)
        }
        return .upgrade([:])
      },
      onUpgrade: { [self] inbound, outbound, context in
        let list = context.requestContext.parameters.get("list") ?? ""
        let peer = context.requestContext.peer
        // Checked before the upgrade; asked again for the access level (the policy is immutable).
        guard let access = try? await authorizeSync(request: context.request, list: list, peer: peer) else { return }
        let owner = hub.configuration.accessPolicy.owner(of: bearerToken(context.request), digest: Self.tokenDigest)
        await serve(
          list: list, access: access, owner: owner, peer: peer, channel: context.requestContext.channel, inbound: inbound,
          outbound: outbound)
      })
  }

  /// Runs one WebSocket connection: opens the hub's session, hands it each message, closes.
  func serve(
    list: String, access: SyncAccess, owner: String? = nil, peer: String, channel: (any Channel)? = nil,
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter
  ) async {
    var logger = self.logger
    logger[metadataKey: "list"] = "\(list)"
    logger[metadataKey: "peer"] = "\(peer)"
    guard let id = connections.add(outbound, channel: channel) else {
      try? await outbound.close(.goingAway, reason: "server shutting down")
      return
    }
    defer { connections.remove(id) }
    let session: SyncSession
    do {
      session = try await hub.openSession(
        list: list, access: access, owner: owner, peer: peer,
        send: { frame in
          // A write fails only once the socket is gone; the session closes when the read loop ends.
          try? await outbound.writeBinaryMessage(ByteBuffer(bytes: frame))
        },
        close: { [connections, configuration] code, reason in
          // The hub closes a client that fell behind (1008) and every client on shutdown (1001).
          await connections.close(
            id, code: WebSocketErrorCode(codeNumber: Int(code)), reason: reason,
            within: code == 1001 ? configuration.shutdownCloseTimeout : configuration.closeTimeout)
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

  /// Whether a sync upgrade of `uri` with this `Authorization` header would be refused (the route
  /// then answers it as a plain GET, with the reason).
  func refusesUpgrade(uri: String, authorization: String?) async -> Bool {
    let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    guard segments.count == 5, segments[0].isEmpty, segments[1] == "v1", segments[2] == "lists", segments[4] == "sync" else {
      return false
    }
    let list = String(segments[3])
    guard SyncHub.isValidListName(list), !connections.isDraining else { return true }
    var token: String?
    if let authorization {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer" {
        let trimmed = parts[1].trimmingCharacters(in: .whitespaces)
        token = trimmed.isEmpty ? nil : trimmed
      }
    }
    switch hub.authorize(token: token, list: list) {
    case .unauthenticated, .forbidden: return true
    case .write: return false
    case .read: return ((try? await hub.storage.genesis(of: list)) ?? nil) == nil
    }
  }

  /// The first 16 bytes of the token's SHA-256, in hex: the owner name stored for a token.
  static func tokenDigest(_ token: String) -> String {
    SHA256.hash(data: Array(token.utf8)).prefix(16).map { byte in
      let digits = Array("0123456789abcdef".utf8)
      return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
    }.joined()
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
