import ListState

extension HistoryCodec {
  /// Decodes a checkpoint record into its head and each section with its outline, without
  /// building a ``ListSnapshot``: for a reader that only walks the state (prints it, or folds
  /// events onto it with a ``ListFold``), where a snapshot's bulk build and its hashed lookups
  /// of every item would cost more than the decoding. Identifiers are not checked for
  /// duplicates (a snapshot built from the result is).
  ///
  /// Nothing is kept in the tables for records after the checkpoint: its tables are reset when
  /// it returns, so decode the checkpoint with ``decode(_:)`` to read a stream on from it.
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
    // No record follows, so no item's entry will be read again: the tables keep none (an
    // entry per item would add to the memory a large state's decoding touches), and remember
    // no contents.
    let mode = decodingMode
    decodingMode = .leavingRememberedItemsToTheState
    defer {
      reset(keepingDecoderStorage: false)
      decodingMode = mode
    }
    let latest = Int(record.version)
    let head = latest - (try reader.int(max: latest, "checkpoint head distance"))
    let count = try reader.count("section", minimumBytes: 2)
    var sections: [(Section, ListOutline<Item>)] = []
    sections.reserveCapacity(count)
    for _ in 0..<count {
      let section = try readSection(&reader)
      sections.append((section, try readCheckpointOutline(&reader)))
    }
    guard reader.isAtEnd else { throw reader.fail("\(reader.remaining) unexpected trailing bytes") }
    return (Version(head), sections)
  }

  /// ``readOutline(_:checkpoint:)`` of a checkpoint's section, with ``readCheckpointItem(_:)``.
  @inlinable
  mutating func readCheckpointOutline(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ListOutline<Item> {
    try readOutline(&reader, checkpoint: true)
  }

  /// ``readItem(_:)`` of an item a checkpoint defines, without an entry in the tables: a
  /// checkpoint resets them first and holds each item once, so every item it names is new.
  @inlinable
  mutating func readCheckpointItem(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Item {
    let start = reader.offset
    let header = try reader.varint()
    guard header & 1 == 1 else { throw reader.fail("a checkpoint item refers to an earlier one", at: start) }
    let value: JournalValue
    switch header >> 2 {
    case 0: value = try readValue(&reader, marker: nil)
    case 1:
      let number = decoderTables.newItemBase &+ (try reader.zigzag())
      decoderTables.newItemBase = number
      value = .int(number)
    default: throw reader.fail("new item identifier of unknown form \(header >> 2)", at: start)
    }
    let id: Item.ID
    do { id = try itemCoding.makeID(value) } catch { throw reader.fail("item identifier \(value): \(error)", at: start) }
    if header & 2 != 0, let identity = itemCoding.identityElement { return identity(id) }
    // No entry to remember the content in (`DecodingMode.leavingRememberedItemsToTheState`): index 0 is unused.
    return try makeItem(id: id, idValue: value, index: 0, content: header & 2 != 0 ? value : nil, start: start, &reader)
  }
}
