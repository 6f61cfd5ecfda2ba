import libzstd

/// A zstd streaming decompressor that decodes one chunk at a time into a bounded buffer (a
/// `_DecodedBytes` the caller owns, so records can view it after the call).
///
/// Every chunk declares its decompressed size; the output buffer holds that size (already
/// checked against the caps) plus one byte, so hostile input can neither allocate beyond the cap
/// nor produce more output than declared without being caught.
final class _ZstdDecompressor: @unchecked Sendable {
  // @unchecked: used by one iterator at a time (copies of an iterator take their own before
  // decoding with it, see `JournalRecordIterator`).
  private let context: OpaquePointer
  /// Largest window a reader accepts (8 MiB), bounding decoder memory for untrusted frames.
  static let maxWindowLog: Int32 = 23

  init() {
    context = ZSTD_createDCtx()
    _ = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.maxWindowLog)
  }

  deinit {
    ZSTD_freeDCtx(context)
  }

  /// Starts a new frame.
  func reset() {
    _ = ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
  }

  /// Decodes one chunk's compressed bytes, which must produce exactly `expected` bytes and must
  /// end the frame exactly when `endsFrame`. Returns nil and a reason on failure.
  ///
  /// - Complexity: O(expected + input).
  func decode(_ input: UnsafeRawBufferPointer, expected: Int, endsFrame: Bool, into output: _DecodedBytes)
    -> Result<UnsafeRawBufferPointer, _ChunkFailure>
  {
    output.reserve(expected + 1)
    let buffer = output.storage
    var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
    var outBuffer = ZSTD_outBuffer(dst: buffer.baseAddress, size: expected + 1, pos: 0)
    var hint = 1
    while true {
      let before = (inBuffer.pos, outBuffer.pos)
      hint = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
      if ZSTD_isError(hint) != 0 {
        return .failure(.init("zstd: \(String(cString: ZSTD_getErrorName(hint)))"))
      }
      if outBuffer.pos > expected { return .failure(.init("chunk decodes to more than its declared \(expected) bytes")) }
      if inBuffer.pos == inBuffer.size && (outBuffer.pos < outBuffer.size) { break }
      if hint == 0 && inBuffer.pos < inBuffer.size { return .failure(.init("bytes after the end of a zstd frame")) }
      if before == (inBuffer.pos, outBuffer.pos) { return .failure(.init("zstd made no progress")) }
    }
    guard outBuffer.pos == expected else {
      return .failure(.init("chunk decodes to \(outBuffer.pos) bytes, header says \(expected)"))
    }
    guard (hint == 0) == endsFrame else {
      return .failure(.init(endsFrame ? "frame-end chunk does not end the zstd frame" : "zstd frame ends inside a flush chunk"))
    }
    return .success(UnsafeRawBufferPointer(start: buffer.baseAddress, count: expected))
  }
}

/// The bytes a chunk decodes to, in a buffer that lives as long as someone reads them.
///
/// An iterator hands out records as views into it (`_RecordCodec.Records`). Copies of an
/// iterator share it; one that decodes its next chunk while the buffer is still shared takes a
/// fresh one, so the other copy's view stays valid (reusing it overwrote, or after growing it
/// freed, the bytes the other copy was reading).
final class _DecodedBytes {
  private(set) var storage: UnsafeMutableRawBufferPointer

  init() {
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)
  }

  deinit {
    storage.deallocate()
  }

  /// Makes room for `count` bytes (the old contents are dropped).
  func reserve(_ count: Int) {
    guard storage.count < count else { return }
    storage.deallocate()
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
  }
}
