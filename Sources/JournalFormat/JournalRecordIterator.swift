/// Decodes records frame by frame, chunk by chunk, verifying each against its chunk header.
///
/// Not a `Sequence` because decoding can fail with a typed error. The first damaged chunk
/// stops it: every later call throws the same error. Copies read independently (a copy that
/// moves on while another shares its state decodes its frame's earlier chunks again first).
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
  /// The records of the chunk being read (they view `decoded`), and where that chunk starts,
  /// for error messages.
  private var chunk: _RecordCodec.Records?
  private var chunkStart = 0
  /// Whether every record of `chunk` was checked (``next()`` hands out none of a malformed
  /// chunk; ``forEachRemaining(_:)`` checks as it goes, and its body may stop it midway).
  private var chunkChecked = false
  /// What the current chunk decoded to. Copies of the iterator share it until one decodes its
  /// next chunk: that one then takes a fresh buffer, so the other's records stay intact.
  private var decoded = _DecodedBytes()
  /// The first malformed chunk met: every later call throws it again (the iterator never
  /// reads past damage).
  private var failure: JournalError?
  /// The zstd stream of the current frame. Copies of the iterator share it until one moves on:
  /// that one then takes its own (see `_ownStream(catchingUpTo:)`), so copies read independently.
  private var decompressor = _ZstdDecompressor()

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
    // A stream a copy still reads is left to it.
    if isKnownUniquelyReferenced(&decompressor) { decompressor.reset() } else { decompressor = _ZstdDecompressor() }
  }

  /// Gives this iterator a stream of its own when a copy shares it, brought to the state the
  /// shared one had before the chunk at `offset`: the frame's chunks before it are decoded
  /// again (the zstd stream of a frame cannot be copied). Only copies of an iterator pay this.
  private mutating func _ownStream(catchingUpTo offset: Int) throws(JournalError) {
    guard !isKnownUniquelyReferenced(&decompressor) else { return }
    let stream = _ZstdDecompressor()
    let limits = reader.limits
    let scratch = _DecodedBytes()
    var position = Int(reader.frames[frameIndex].offset)
    while position < offset {
      let start = position
      do {
        position = try reader.bytes.withBytes { (file) throws(_ChunkFailure) -> Int in
          try Self._decodeChunk(at: start, in: file, limits: limits, decompressor: stream, into: scratch).0
        }
      } catch {
        throw _fail(_corrupted(at: start, reason: error.reason))
      }
    }
    decompressor = stream
  }

  /// The next record, nil at the end of the readable prefix.
  ///
  /// A chunk with a malformed record fails before any of its records is returned.
  public mutating func next() throws(JournalError) -> JournalRecord? {
    guard let record = try _nextRecord() else { return nil }
    return JournalRecord(
      kind: .init(rawValue: record.kind), sequence: record.sequence, version: record.version, payload: Array(record.payload))
  }

  /// Reads the next record into `record`, as ``next()`` would return it; false at the end of
  /// the readable prefix (`record` is then left as it was).
  ///
  /// The payload is copied into `record.payload`'s storage, which is reused when `record` holds
  /// the only reference to it: a reader that is done with each record (and its payload) before
  /// asking for the next allocates no payload arrays — a journal replay. A payload still
  /// referenced elsewhere is left alone (copy on write).
  ///
  /// ```swift
  /// var record = JournalRecord(kind: .metadata, version: 0, payload: [])
  /// while try iterator.next(into: &record) { apply(record) }
  /// ```
  /// - Complexity: amortized O(record size), as ``next()``.
  @usableFromInline
  package mutating func next(into record: inout JournalRecord) throws(JournalError) -> Bool {
    guard let next = try _nextRecord() else { return false }
    record.kind = .init(rawValue: next.kind)
    record.sequence = next.sequence
    record.version = next.version
    record.payload.replaceSubrange(record.payload.indices, with: next.payload)
    return true
  }

  /// The next record, its payload viewing the decoded chunk (valid until the next call).
  private mutating func _nextRecord() throws(JournalError) -> _RecordCodec.Record? {
    if let failure { throw failure }
    while true {
      if chunk != nil {
        if !chunkChecked { try _checkRestOfChunk() }
        do throws(_ChunkFailure) {
          if let record = try chunk!.next() { return record }
        } catch {
          throw _fail(_corrupted(at: chunkStart, reason: error.reason))  // checked: not expected
        }
        chunk = nil
      }
      guard frameIndex < reader.frames.count else { return nil }
      if chunkOffset >= frameEnd {
        frameIndex += 1
        if frameIndex >= reader.frames.count { return nil }
        enterFrame()
        continue
      }
      try _enterChunk(checkingRecords: true)
    }
  }

  /// Visits every remaining record without copying payloads — the fast replay path.
  ///
  /// Unlike ``next()``, it visits a chunk's records up to a malformed one before failing.
  ///
  /// ```swift
  /// var iterator = reader.makeIterator()
  /// try iterator.forEachRemaining { kind, sequence, version, payload in count += payload.count }
  /// ```
  /// - Complexity: O(remaining decoded bytes).
  public mutating func forEachRemaining(
    _ body: (JournalRecord.Kind, UInt64, UInt64, UnsafeRawBufferPointer) throws(JournalError) -> Void
  ) throws(JournalError) {
    if let failure { throw failure }
    while true {
      if chunk != nil {
        let record: _RecordCodec.Record?
        do throws(_ChunkFailure) { record = try chunk!.next() } catch {
          throw _fail(_corrupted(at: chunkStart, reason: error.reason))
        }
        if let record {
          try body(JournalRecord.Kind(rawValue: record.kind), record.sequence, record.version, record.payload)
          continue
        }
        chunk = nil
      }
      guard frameIndex < reader.frames.count else { return }
      if chunkOffset >= frameEnd {
        frameIndex += 1
        if frameIndex >= reader.frames.count { return }
        enterFrame()
        continue
      }
      try _enterChunk(checkingRecords: false)
    }
  }

  /// Decodes the chunk at `chunkOffset` (already checksummed by the scan) and makes its
  /// records the current ones. With `checkingRecords`, every record is checked first, so a
  /// malformed chunk fails before any of its records is handed out.
  private mutating func _enterChunk(checkingRecords: Bool) throws(JournalError) {
    let offset = chunkOffset
    let limits = reader.limits
    try _ownStream(catchingUpTo: offset)
    let decompressor = self.decompressor
    if !isKnownUniquelyReferenced(&decoded) { decoded = _DecodedBytes() }
    let output = decoded
    let entered: (end: Int, records: _RecordCodec.Records)
    do {
      entered = try reader.bytes.withBytes { (file) throws(_ChunkFailure) -> (Int, _RecordCodec.Records) in
        try Self._decodeChunk(at: offset, in: file, limits: limits, decompressor: decompressor, into: output)
      }
    } catch {
      throw _fail(_corrupted(at: offset, reason: error.reason))
    }
    chunkOffset = entered.end
    chunkStart = offset
    chunk = entered.records
    chunkChecked = false
    if checkingRecords { try _checkRestOfChunk() }
  }

  /// Checks the records of `chunk` not read yet (without reading them).
  private mutating func _checkRestOfChunk() throws(JournalError) {
    var check = chunk!
    do throws(_ChunkFailure) { while try check.next() != nil {} } catch {
      throw _fail(_corrupted(at: chunkStart, reason: error.reason))
    }
    chunkChecked = true
  }

  /// Remembers `error` as the iterator's failure (and drops the chunk), returning it to throw.
  private mutating func _fail(_ error: JournalError) -> JournalError {
    chunk = nil
    failure = error
    return error
  }

  /// Decodes the chunk at `offset` of `file` into `output`: where it ends, and its records.
  private static func _decodeChunk(
    at offset: Int, in file: UnsafeRawBufferPointer, limits: JournalLimits, decompressor: _ZstdDecompressor,
    into output: _DecodedBytes
  ) throws(_ChunkFailure) -> (Int, _RecordCodec.Records) {
    // The scan verified this chunk; re-reading the header is cheap and keeps us independent of
    // the scan's bookkeeping.
    guard offset + _ChunkHeader.size <= file.count, file._loadLE(UInt32.self, at: offset) == _ChunkHeader.syncMagic else {
      throw _ChunkFailure("chunk header moved since the scan")
    }
    let header = _ChunkHeader(
      flags: file[offset + 4], compressedLength: file._loadLE(UInt32.self, at: offset + 8),
      uncompressedLength: file._loadLE(UInt32.self, at: offset + 12), recordCount: file._loadLE(UInt32.self, at: offset + 16),
      firstSequence: file._loadLE(UInt64.self, at: offset + 20), firstVersion: file._loadLE(UInt64.self, at: offset + 28),
      lastVersion: file._loadLE(UInt64.self, at: offset + 36))
    let end = offset + header.totalSize
    guard end <= file.count, Int(header.uncompressedLength) <= limits.maxChunkBytes else {
      throw _ChunkFailure("chunk length out of range")
    }
    let compressed = UnsafeRawBufferPointer(rebasing: file[(offset + _ChunkHeader.size)..<end])
    switch decompressor.decode(compressed, expected: Int(header.uncompressedLength), endsFrame: header.isFrameEnd, into: output) {
    case .success(let decoded): return (end, _RecordCodec.Records(decoded, header: header, limits: limits))
    case .failure(let failure): throw failure
    }
  }

  /// A corruption of the chunk at `offset`.
  private func _corrupted(at offset: Int, reason: String) -> JournalError {
    .corrupted(offset: Int64(offset), lastGoodVersion: lastGoodVersion, reason: reason)
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
