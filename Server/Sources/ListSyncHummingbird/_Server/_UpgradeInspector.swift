import Logging
import NIOCore
import NIOHTTP1

/// Sits after the HTTP decoder and before the WebSocket upgrade: a sync upgrade the server
/// would refuse is passed on as a plain GET (its `Upgrade` header renamed), so the route answers
/// it with the status and JSON body SYNC.md §1 documents instead of the upgrader's bare 400.
/// A request the decoder cannot parse is answered 400 and closed, and logged. An upgrade it lets
/// through removes the inspector (the WebSocket bytes that follow are not HTTP).
///
/// - Complexity: O(1) per request part; one storage look-up per upgrade of a read-only token.
final class _UpgradeInspector: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// The header a refused upgrade's `Upgrade` header becomes, so the route still sees one was asked for.
  static let refusedUpgradeHeader = "x-listjournal-refused-upgrade"

  let refuses: @Sendable (_ uri: String, _ authorization: String?) async -> Bool
  let logger: Logger
  /// Parts held while an upgrade's access is looked up.
  private var held: [HTTPServerRequestPart] = []
  private var deciding = false
  private var failed = false

  init(refuses: @escaping @Sendable (_ uri: String, _ authorization: String?) async -> Bool, logger: Logger) {
    self.refuses = refuses
    self.logger = logger
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    guard !deciding else {
      held.append(part)
      return
    }
    guard case .head(let head) = part, head.headers["upgrade"].contains(where: { $0.lowercased() == "websocket" }) else {
      context.fireChannelRead(data)
      return
    }
    deciding = true
    held = [part]
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let refuses = self.refuses
    let uri = head.uri
    let authorization = head.headers["authorization"].first
    let loop = context.eventLoop
    Task {
      let refused = await refuses(uri, authorization)
      loop.execute { bound.value.0.release(context: bound.value.1, refused: refused) }
    }
  }

  private func release(context: ChannelHandlerContext, refused: Bool) {
    deciding = false
    var parts = held
    held = []
    if refused, case .head(var head) = parts.first {
      let values = head.headers["upgrade"]
      head.headers.remove(name: "upgrade")
      head.headers.replaceOrAdd(name: "connection", value: "close")
      for value in values { head.headers.add(name: Self.refusedUpgradeHeader, value: value) }
      parts[0] = .head(head)
    }
    for part in parts { context.fireChannelRead(wrapInboundOut(part)) }
    if !refused {
      // What follows the upgrade is WebSocket bytes, not request parts.
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard error is HTTPParserError, !failed else {
      context.fireErrorCaught(error)
      return
    }
    failed = true
    let peer = context.channel.remoteAddress.map { address in
      if let ip = address.ipAddress, let port = address.port { "\(ip):\(port)" } else { "\(address)" }
    } ?? "unknown"
    logger.notice("request refused", metadata: ["peer": "\(peer)", "reason": "malformed HTTP: \(error)", "status": "400"])
    let body = "{\"code\":\"bad-request\",\"error\":\"the request is not valid HTTP/1.1\"}"
    var headers = HTTPHeaders()
    headers.add(name: "content-type", value: "application/json")
    headers.add(name: "content-length", value: "\(body.utf8.count)")
    headers.add(name: "connection", value: "close")
    context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
    context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
  }
}
