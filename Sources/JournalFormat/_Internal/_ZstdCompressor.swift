import libzstd

/// A zstd streaming compressor (one `ZSTD_CCtx`) producing flushed chunks of one frame at a time.
///
/// Not thread-safe; the writer's lock serializes it.
final class _ZstdCompressor: @unchecked Sendable {
  // @unchecked: used only under the owning writer's lock.
  private let context: OpaquePointer
  private var output: [UInt8] = []

  /// Frames are ~256 KiB, so a larger window would only cost decoder memory.
  static let windowLog: Int32 = 20

  init(level: Int32) throws(JournalError) {
    guard let context = ZSTD_createCCtx() else { throw .io(operation: "ZSTD_createCCtx", path: "", errno: 12) }
    self.context = context
    _ = ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
    _ = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
    _ = ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, Self.windowLog)
  }

  deinit { ZSTD_freeCCtx(context) }

  /// Discards the current frame so the next call starts a new one (after a failed write, or
  /// after reopening a journal whose last frame was left unterminated).
  func startNewFrame() {
    _ = ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
  }

  /// Compresses `input` and flushes (`endFrame == false`) or ends the frame, returning exactly
  /// the bytes of this chunk.
  ///
  /// - Complexity: O(n) in the input.
  func compress(_ input: [UInt8], endFrame: Bool) throws(JournalError) -> [UInt8] {
    let directive = endFrame ? ZSTD_e_end : ZSTD_e_flush
    let bound = ZSTD_compressBound(input.count) + 64
    if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
    var failure: String?
    var produced = 0
    input.withUnsafeBytes { src in
      output.withUnsafeMutableBytes { dst in
        var inBuffer = ZSTD_inBuffer(src: src.baseAddress, size: src.count, pos: 0)
        var outBuffer = ZSTD_outBuffer(dst: dst.baseAddress, size: dst.count, pos: 0)
        while true {
          let remaining = ZSTD_compressStream2(context, &outBuffer, &inBuffer, directive)
          if ZSTD_isError(remaining) != 0 {
            failure = String(cString: ZSTD_getErrorName(remaining))
            return
          }
          if remaining == 0 { break }
          if outBuffer.pos == outBuffer.size {
            failure = "compressed output exceeded bound"
            return
          }
        }
        produced = outBuffer.pos
      }
    }
    if let failure { throw .io(operation: "zstd compress: \(failure)", path: "", errno: 0) }
    return Array(output[0..<produced])
  }
}
