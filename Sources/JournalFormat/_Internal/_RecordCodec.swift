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

  /// Calls `body(kind, sequence, version, payload)` for each record of one decoded chunk,
  /// checking the records against the chunk header. Returns a failure reason for bad bytes.
  ///
  /// - Complexity: O(n) in the decoded bytes.
  static func forEach<E: Error>(
    in decoded: UnsafeRawBufferPointer, header: _ChunkHeader, limits: JournalLimits,
    _ body: (UInt8, UInt64, UInt64, UnsafeRawBufferPointer) throws(E) -> Void
  ) throws(E) -> String? {
    var cursor = _ByteCursor(decoded)
    var version = header.firstVersion
    for index in 0..<UInt64(header.recordCount) {
      guard let kind = cursor.readByte(), let delta = cursor.readVarint(), let length = cursor.readVarint() else {
        return "record \(index) of chunk is truncated"
      }
      guard kind != 0 else { return "record \(index) has kind 0" }
      let (next, overflow) = version.addingReportingOverflow(delta)
      guard !overflow, next <= header.lastVersion, index > 0 || delta == 0 else {
        return "record \(index) version outside the chunk's range"
      }
      version = next
      guard length <= UInt64(limits.maxRecordPayload) else {
        return "record \(index) payload length \(length) exceeds limit \(limits.maxRecordPayload)"
      }
      guard Int(length) <= cursor.remaining else { return "record \(index) payload runs past chunk end" }
      let payload = UnsafeRawBufferPointer(rebasing: decoded[cursor.position..<(cursor.position + Int(length))])
      cursor.position += Int(length)
      try body(kind, header.firstSequence &+ index, version, payload)
    }
    guard cursor.remaining == 0 else { return "\(cursor.remaining) trailing bytes after the chunk's records" }
    guard header.recordCount == 0 || version == header.lastVersion else { return "last record version differs from chunk header" }
    return nil
  }
}
