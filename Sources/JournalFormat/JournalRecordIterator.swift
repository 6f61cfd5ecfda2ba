/// Decodes records frame by frame, chunk by chunk, verifying each against its chunk header.
///
/// Not a `Sequence` because decoding can fail with a typed error.
///
/// ```swift
/// var iterator = reader.makeIterator()
/// while let record = try iterator.next() { print(record.sequence, record.kind) }
/// ```
/// - Complexity: each `next()` is amortized O(record size); decoding memory is bounded by the
///   largest chunk (capped by `JournalLimits.maxChunkBytes`).
public struct JournalRecordIterator {
  let reader: JournalReader
  private var frameIndex: Int
  private var chunkOffset: Int
  private var frameEnd: Int
  private var buffered: [JournalRecord] = []
  private var bufferedPosition = 0
  private let decompressor = _ZstdDecompressor()

  init(reader: JournalReader, frameIndex: Int) {
    self.reader = reader
    self.frameIndex = max(0, frameIndex)
    chunkOffset = 0
    frameEnd = 0
    if self.frameIndex < reader.frames.count { enterFrame() }
  }

  private mutating func enterFrame() {
    let frame = reader.frames[frameIndex]
    chunkOffset = Int(frame.offset)
    frameEnd = Int(frame.offset + frame.byteCount)
    decompressor.reset()
  }

  /// The next record, nil at the end of the readable prefix.
  public mutating func next() throws(JournalError) -> JournalRecord? {
    while bufferedPosition == buffered.count {
      buffered.removeAll(keepingCapacity: true)
      bufferedPosition = 0
      guard frameIndex < reader.frames.count else { return nil }
      if chunkOffset >= frameEnd {
        frameIndex += 1
        if frameIndex >= reader.frames.count { return nil }
        enterFrame()
      }
      let offset = chunkOffset
      chunkOffset = try _decodeChunk(at: offset) { (kind, sequence, version, payload) throws(JournalError) in
        buffered.append(JournalRecord(
          kind: .init(rawValue: kind), sequence: sequence, version: version, payload: Array(payload)))
      }
    }
    defer { bufferedPosition += 1 }
    return buffered[bufferedPosition]
  }

  /// Visits every remaining record without copying payloads — the fast replay path.
  ///
  /// ```swift
  /// var iterator = reader.makeIterator()
  /// try iterator.forEachRemaining { kind, sequence, version, payload in count += payload.count }
  /// ```
  /// - Complexity: O(remaining decoded bytes).
  public mutating func forEachRemaining(
    _ body: (JournalRecord.Kind, UInt64, UInt64, UnsafeRawBufferPointer) throws(JournalError) -> Void
  ) throws(JournalError) {
    while bufferedPosition < buffered.count {
      let record = buffered[bufferedPosition]
      bufferedPosition += 1
      var failure: JournalError?
      record.payload.withUnsafeBytes { payload in
        do throws(JournalError) { try body(record.kind, record.sequence, record.version, payload) } catch { failure = error }
      }
      if let failure { throw failure }
    }
    while frameIndex < reader.frames.count {
      if chunkOffset >= frameEnd {
        frameIndex += 1
        if frameIndex >= reader.frames.count { return }
        enterFrame()
        continue
      }
      chunkOffset = try _decodeChunk(at: chunkOffset) { (kind, sequence, version, payload) throws(JournalError) in
        try body(JournalRecord.Kind(rawValue: kind), sequence, version, payload)
      }
    }
  }

  /// Decodes the chunk at `offset` (already checksummed by the scan), returning the next offset.
  private func _decodeChunk(
    at offset: Int, _ body: (UInt8, UInt64, UInt64, UnsafeRawBufferPointer) throws(JournalError) -> Void
  ) throws(JournalError) -> Int {
    let limits = reader.limits
    let lastGood = lastGoodVersion
    let decompressor = self.decompressor
    return try reader.bytes.withBytes { (file) throws(JournalError) -> Int in
      func fail(_ reason: String) -> JournalError { .corrupted(offset: Int64(offset), lastGoodVersion: lastGood, reason: reason) }
      // The scan verified this chunk; re-reading the header is cheap and keeps us independent of
      // the scan's bookkeeping.
      guard offset + _ChunkHeader.size <= file.count, file._loadLE(UInt32.self, at: offset) == _ChunkHeader.syncMagic else {
        throw fail("chunk header moved since the scan")
      }
      let header = _ChunkHeader(
        flags: file[offset + 4], compressedLength: file._loadLE(UInt32.self, at: offset + 8),
        uncompressedLength: file._loadLE(UInt32.self, at: offset + 12), recordCount: file._loadLE(UInt32.self, at: offset + 16),
        firstSequence: file._loadLE(UInt64.self, at: offset + 20), firstVersion: file._loadLE(UInt64.self, at: offset + 28),
        lastVersion: file._loadLE(UInt64.self, at: offset + 36))
      let end = offset + header.totalSize
      guard end <= file.count, Int(header.uncompressedLength) <= limits.maxChunkBytes else { throw fail("chunk length out of range") }
      let compressed = UnsafeRawBufferPointer(rebasing: file[(offset + _ChunkHeader.size)..<end])
      let decoded: UnsafeRawBufferPointer
      switch decompressor.decode(compressed, expected: Int(header.uncompressedLength), endsFrame: header.isFrameEnd) {
      case .success(let bytes): decoded = bytes
      case .failure(let failure): throw fail(failure.reason)
      }
      if let reason = try _RecordCodec.forEach(in: decoded, header: header, limits: limits, body) { throw fail(reason) }
      return end
    }
  }

  /// Version of the last record of the previous frame, for error messages.
  private var lastGoodVersion: UInt64? {
    var index = frameIndex - 1
    while index >= 0 {
      if reader.frames[index].recordCount > 0 { return reader.frames[index].lastVersion }
      index -= 1
    }
    return nil
  }
}
