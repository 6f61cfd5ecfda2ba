import ListState

extension HistoryCodec {
  /// Decodes a checkpoint record into its head and each section with its outline, without
  /// building a ``ListSnapshot``: for a reader that only walks the state (prints it, or folds
  /// events onto it with a ``ListFold``), where a snapshot's bulk build and its hashed lookups
  /// of every item would cost more than the decoding. Like ``decode(_:)`` it resets the tables
  /// first; identifiers are not checked for duplicates (a snapshot built from the result is).
  ///
  /// ```swift
  /// let (head, sections) = try codec.decodeCheckpointSections(record)
  /// let state = try ListSnapshot(sections)
  /// ```
  /// - Throws: ``HistoryCodecError/malformed(offset:reason:)`` when the payload is not a
  ///   checkpoint's.
  /// - Complexity: O(size of the payload).
  @inlinable
  public mutating func decodeCheckpointSections(_ record: HistoryRecord) throws(HistoryCodecError)
    -> (head: Version, sections: [(Section, ListOutline<Item>)])
  {
    var reader = _ByteReader(record.payload)
    guard record.kind == .checkpoint else { throw reader.fail("a \(record.kind) record is not a checkpoint") }
    guard record.version <= UInt64(Int32.max) else { throw reader.fail("record version \(record.version) out of range") }
    reset(keepingDecoderStorage: false)
    // No record follows in this stream, so nothing will need an item's remembered content:
    // the tables keep no items (as for a pipelined replay's), only the identifiers, sized once
    // for as many items as the payload could hold at a few bytes each.
    let keepsContents = decoderTables.keepsContents
    decoderTables.keepsContents = false
    decoderTables.leavesRememberedItemsToTheState = true
    defer {
      decoderTables.leavesRememberedItemsToTheState = false
      decoderTables.keepsContents = keepsContents
    }
    decoderTables.itemIDs.reserveCapacity(record.payload.count / 4)
    decoderTables.items.reserveCapacity(record.payload.count / 4)
    let latest = Int(record.version)
    let head = latest - (try reader.int(max: latest, "checkpoint head distance"))
    let count = try reader.count("section", minimumBytes: 2)
    var sections: [(Section, ListOutline<Item>)] = []
    sections.reserveCapacity(count)
    for _ in 0..<count {
      let section = try readSection(&reader)
      sections.append((section, try readOutline(&reader)))
    }
    guard reader.isAtEnd else { throw reader.fail("\(reader.remaining) unexpected trailing bytes") }
    return (Version(head), sections)
  }
}
