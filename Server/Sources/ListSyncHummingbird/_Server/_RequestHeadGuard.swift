import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// The first handler of every connection, before HTTP parsing: a client must send a whole
/// request head (up to the blank line) within a deadline and a byte bound, or the connection
/// is answered (408, 431) and closed, and the reason logged. A TLS ClientHello is closed at once.
/// Once the head is complete the handler leaves the pipeline.
///
/// - Complexity: O(bytes of the head), one timer per connection.
final class _RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  let timeout: TimeAmount
  let maxHeadBytes: Int
  let logger: Logger
  private var seen = 0
  /// How many bytes of "\r\n\r\n" the last bytes matched.
  private var matched = 0
  private var timer: Scheduled<Void>?
  private var done = false
  /// The head's bytes so far, lowercased ASCII, to tell a WebSocket upgrade.
  private var head: [UInt8] = []

  init(timeout: TimeAmount, maxHeadBytes: Int, logger: Logger) {
    self.timeout = timeout
    self.maxHeadBytes = maxHeadBytes
    self.logger = logger
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
      refuse(
        bound.value, status: "408 Request Timeout", code: "request-timeout",
        "no complete request head within \(timeout.nanoseconds / 1_000_000_000) s")
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !done else { return }
    let buffer = unwrapInboundIn(data)
    if seen == 0, buffer.readableBytesView.first == 0x16 {
      // A TLS record (handshake) on a plain HTTP port: no HTTP answer is possible.
      log(context, "a TLS handshake on a plain HTTP port")
      done = true
      context.close(promise: nil)
      return
    }
    var complete = false
    var consumed = 0
    for byte in buffer.readableBytesView {
      seen += 1
      consumed += 1
      head.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
      let expected: UInt8 = matched % 2 == 0 ? 0x0D : 0x0A
      if byte == expected {
        matched += 1
      } else {
        matched = byte == 0x0D ? 1 : 0
      }
      if matched == 4 {
        complete = true
        break
      }
    }
    if !complete, seen > maxHeadBytes {
      refuse(context, status: "431 Request Header Fields Too Large", code: "header-too-large",
        "a request head over \(maxHeadBytes) bytes")
      return
    }
    guard complete else {
      context.fireChannelRead(data)
      return
    }
    done = true
    timer?.cancel()
    timer = nil
    let text = String(decoding: head, as: UTF8.self)
    let isUpgrade = text.contains("\r\nupgrade:") && text.contains("websocket")
    head = []
    guard isUpgrade else {
      context.fireChannelRead(data)
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
      return
    }
    // Frames follow the head: they pass the framing rules the decoder does not check.
    let frames = _FrameRuleGuard(logger: logger)
    do { try context.pipeline.syncOperations.addHandler(frames, position: .after(self)) } catch {
      context.close(promise: nil)
      return
    }
    var rest = buffer
    let headBytes = rest.readSlice(length: consumed)!
    context.fireChannelRead(wrapInboundOut(headBytes))
    frames.armed = true
    if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  private func refuse(_ context: ChannelHandlerContext, status: String, code: String, _ reason: String) {
    guard !done else { return }
    done = true
    timer?.cancel()
    timer = nil
    log(context, reason)
    let body = "{\"code\":\"\(code)\",\"error\":\"\(reason)\"}"
    let head =
      "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
    let bytes = context.channel.allocator.buffer(string: head + body)
    context.writeAndFlush(wrapOutboundOut(bytes)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
  }

  typealias OutboundOut = ByteBuffer

  private func log(_ context: ChannelHandlerContext, _ reason: String) {
    let peer = context.channel.remoteAddress.map { address in
      if let ip = address.ipAddress, let port = address.port { "\(ip):\(port)" } else { "\(address)" }
    } ?? "unknown"
    logger.notice("connection closed before a request", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
  }
}

/// The server's connection setup: the request-head guard first, then Hummingbird's HTTP/1 and
/// WebSocket upgrade pipeline.
struct _GuardedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
  typealias Value = Base.Value
  let base: Base
  let headTimeout: TimeAmount
  let maxHeadBytes: Int
  let logger: Logger
  let refusesUpgrade: @Sendable (_ uri: String, _ authorization: String?) async -> Bool

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    do {
      try channel.pipeline.syncOperations.addHandler(
        _RequestHeadGuard(timeout: headTimeout, maxHeadBytes: maxHeadBytes, logger: self.logger), position: .first)
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    let inspector = _UpgradeInspector(refuses: refusesUpgrade, logger: self.logger)
    return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try channel.pipeline.syncOperations.addHandler(inspector, position: .after(decoder))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await base.handle(value: value, logger: logger)
  }
}
