import Logging
import NIOCore

/// RFC 6455's framing rules the WebSocket decoder does not enforce, checked on the raw bytes
/// after an upgrade request: every client frame must be masked (§5.1), and a 64-bit payload
/// length must have its most significant bit clear (§5.2). A frame breaking either gets a close
/// frame with 1002 (protocol error) and the connection is closed; the reason is logged.
///
/// - Complexity: O(1) per frame header; payload bytes are only counted.
final class _FrameRuleGuard: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundOut = ByteBuffer

  let logger: Logger
  /// Header bytes of the frame being read, until it is whole.
  private var header: [UInt8] = []
  /// Payload bytes of the current frame still to pass.
  private var remaining: UInt64 = 0
  private var failed = false
  /// Bytes pass unchecked until armed (the request head that precedes the frames).
  var armed = false

  init(logger: Logger) { self.logger = logger }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard armed else {
      context.fireChannelRead(data)
      return
    }
    guard !failed else { return }
    let buffer = unwrapInboundIn(data)
    var view = buffer.readableBytesView[...]
    while !view.isEmpty {
      if remaining > 0 {
        let skipped = Int(min(remaining, UInt64(view.count)))
        view = view.dropFirst(skipped)
        remaining -= UInt64(skipped)
        continue
      }
      header.append(view.removeFirst())
      if let violation = check() {
        fail(context, violation)
        return
      }
    }
    context.fireChannelRead(data)
  }

  /// Reads the header so far: a violation, or nil (and the payload length once it is whole).
  private func check() -> String? {
    guard header.count >= 2 else { return nil }
    guard header[1] & 0x80 != 0 else { return "an unmasked client frame (RFC 6455 §5.1)" }
    let short = header[1] & 0x7F
    let lengthBytes = short == 127 ? 8 : short == 126 ? 2 : 0
    guard header.count >= 2 + lengthBytes + 4 else {
      if short == 127, header.count == 3, header[2] & 0x80 != 0 {
        return "a 64-bit payload length with its most significant bit set (RFC 6455 §5.2)"
      }
      return nil
    }
    var length = UInt64(short)
    if lengthBytes > 0 {
      length = 0
      for byte in header[2..<(2 + lengthBytes)] { length = length << 8 | UInt64(byte) }
    }
    remaining = length
    header = []
    return nil
  }

  private func fail(_ context: ChannelHandlerContext, _ reason: String) {
    failed = true
    let peer = context.channel.remoteAddress.map { address in
      if let ip = address.ipAddress, let port = address.port { "\(ip):\(port)" } else { "\(address)" }
    } ?? "unknown"
    logger.notice("connection closed by the server", metadata: ["peer": "\(peer)", "reason": "\(reason)", "code": "1002"])
    // A close frame: FIN + close opcode, unmasked (server frames), code 1002.
    let close = context.channel.allocator.buffer(bytes: [0x88, 0x02, 0x03, 0xEA])
    context.writeAndFlush(wrapOutboundOut(close)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
  }
}
