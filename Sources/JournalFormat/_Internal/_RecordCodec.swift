/// Encoding of records inside the decompressed stream (see Journal/FORMAT.md §4):
/// `kind u8 | versionDelta varint | payloadLength varint | payload`.
///
/// Sequence numbers are implicit (chunk first sequence + index) and there is no per-record
/// checksum: the chunk CRC covers the compressed bytes, which determine the decompressed bytes
/// exactly, so a per-record CRC would only add four incompressible bytes per event.
enum _RecordCodec {
  static let minimumRecordSize = 3

  static func append(kind: UInt8, versionDelta: UInt64, payload: [UInt8], to buffer: inout [UInt8]) {
    buffer.append(kind)
    buffer._appendVarint(versionDelta)
    buffer._appendVarint(UInt64(payload.count))
    buffer.append(contentsOf: payload)
  }

  /// One record of a decoded chunk; `payload` points into the chunk's decoded bytes.
  struct Record {
    var kind: UInt8
    var sequence: UInt64
    var version: UInt64
    var payload: UnsafeRawBufferPointer
  }

  /// The records of one decoded chunk, read one at a time and checked against the chunk header
  /// as they are read: a reader can hand out each record without first collecting the chunk's.
  ///
  /// It views the decoded bytes without owning them: they must outlive it (the iterator keeps
  /// the `_DecodedBytes` they live in, and decodes its next chunk elsewhere while a copy shares it).
  struct Records {
    let decoded: UnsafeRawBufferPointer
    let header: _ChunkHeader
    let maxRecordPayload: Int
    private var cursor: _ByteCursor
    private var index: UInt64 = 0
    private var version: UInt64

    init(_ decoded: UnsafeRawBufferPointer, header: _ChunkHeader, limits: JournalLimits) {
      self.decoded = decoded
      self.header = header
      maxRecordPayload = limits.maxRecordPayload
      cursor = _ByteCursor(decoded)
      version = header.firstVersion
    }

    /// The next record, nil after the last one; throws the reason when the bytes are bad
    /// (including, after the last record, trailing bytes or a last version that differs from
    /// the header's).
    ///
    /// - Complexity: O(1) (payloads are not copied).
    mutating func next() throws(_ChunkFailure) -> Record? {
      guard index < UInt64(header.recordCount) else {
        guard cursor.remaining == 0 else { throw _ChunkFailure("\(cursor.remaining) trailing bytes after the chunk's records") }
        guard header.recordCount == 0 || version == header.lastVersion else {
          throw _ChunkFailure("last record version differs from chunk header")
        }
        return nil
      }
      guard let kind = cursor.readByte(), let delta = cursor.readVarint(), let length = cursor.readVarint() else {
        throw _ChunkFailure("record \(index) of chunk is truncated")
      }
      guard kind != 0 else { throw _ChunkFailure("record \(index) has kind 0") }
      let (next, overflow) = version.addingReportingOverflow(delta)
      guard !overflow, next <= header.lastVersion, index > 0 || delta == 0 else {
        throw _ChunkFailure("record \(index) version outside the chunk's range")
      }
      guard length <= UInt64(maxRecordPayload) else {
        throw _ChunkFailure("record \(index) payload length \(length) exceeds limit \(maxRecordPayload)")
      }
      guard Int(length) <= cursor.remaining else { throw _ChunkFailure("record \(index) payload runs past chunk end") }
      version = next
      let payload = UnsafeRawBufferPointer(rebasing: decoded[cursor.position..<(cursor.position + Int(length))])
      cursor.position += Int(length)
      defer { index += 1 }
      return Record(kind: kind, sequence: header.firstSequence &+ index, version: version, payload: payload)
    }
  }
}
