import ListState

extension HistoryCodec {
  /// The encoder's intern tables as bytes, for a store that continues this stream in another
  /// process without replaying it (a journal's read index keeps them, Journal/FORMAT.md §11).
  ///
  /// Everything the next record's encoding depends on: sections, items (each with the content
  /// the stream last wrote for it), strings and object shapes in intern order, the timestamp
  /// and new-identifier bases. Whether a remembered content is current is not kept: a restored
  /// encoder treats none as current, which changes no byte it writes.
  ///
  /// ```swift
  /// let bytes = try codec.encodedEncoderTables()
  /// var continued = HistoryCodec<String, Row>()
  /// try continued.restoreEncoderTables(from: bytes)   // encodes the next record as `codec` would
  /// ```
  /// - Complexity: O(entries and their values).
  @inlinable
  package func encodedEncoderTables() throws(HistoryCodecError) -> [UInt8] {
    let tables = encoderTables
    // Values are written through a scratch codec of their own: its string and shape interning
    // is local to these bytes, which a fresh scratch codec reads back in the same order.
    var scratch = HistoryCodec(sectionCoding: sectionCoding, itemCoding: itemCoding)
    var writer = _ByteWriter(capacity: 64 + 16 * tables.items.count)
    writer.varint(tables.sectionList.count)
    for id in tables.sectionList {
      let value: JournalValue
      do { value = try sectionCoding.idValue(id) } catch { throw .unencodable("section identifier \(id): \(error)") }
      try scratch.writeValue(value, marker: nil, into: &writer)
    }
    writer.varint(tables.items.count)
    for index in 0..<tables.items.count {
      let id = tables.items[index]
      let value: JournalValue
      do { value = try itemCoding.idValue(id) } catch { throw .unencodable("item identifier \(id): \(error)") }
      try scratch.writeValue(value, marker: nil, into: &writer)
      if let content = tables.itemContents[index] {
        writer.byte(1)
        try scratch.writeValue(content, marker: nil, into: &writer)
      } else {
        writer.byte(0)
      }
    }
    writer.varint(tables.strings.count)
    for index in 0..<tables.strings.count { scratch.writeRawString(tables.strings[index], into: &writer) }
    writer.varint(tables.shapeList.count)
    for keys in tables.shapeList {
      writer.varint(keys.count)
      for key in keys { scratch.writeRawString(key, into: &writer) }
    }
    writer.zigzag(tables.lastTimestamp)
    writer.zigzag(tables.newItemBase)
    return writer.bytes
  }

  /// Replaces the encoder's tables by those ``encodedEncoderTables()`` wrote; on failure the
  /// codec is unchanged.
  ///
  /// - Throws: ``HistoryCodecError`` naming the byte offset of what is malformed (a truncated
  ///   entry, an identifier listed twice, bytes after the tables).
  /// - Complexity: O(entries and their values).
  @inlinable
  package mutating func restoreEncoderTables(from bytes: [UInt8]) throws(HistoryCodecError) {
    var scratch = HistoryCodec(sectionCoding: sectionCoding, itemCoding: itemCoding)
    var reader = _ByteReader(bytes)
    var tables = _EncoderTables<Section.ID, Item.ID>()
    let sectionCount = try reader.count("section count")
    tables.sectionList.reserveCapacity(sectionCount)
    for _ in 0..<sectionCount {
      let start = reader.offset
      let value = try scratch.readValue(&reader, marker: nil)
      let id: Section.ID
      do { id = try sectionCoding.makeID(value) } catch { throw reader.fail("section identifier \(value): \(error)", at: start) }
      guard tables.sections[id] == nil else { throw reader.fail("section \(value) listed twice", at: start) }
      tables.sections[id] = tables.sectionList.count
      tables.sectionList.append(id)
    }
    let itemCount = try reader.count("item count", minimumBytes: 2)
    tables.items.reserveCapacity(itemCount)
    tables.itemContents.reserveCapacity(itemCount)
    for _ in 0..<itemCount {
      let start = reader.offset
      let value = try scratch.readValue(&reader, marker: nil)
      let id: Item.ID
      do { id = try itemCoding.makeID(value) } catch { throw reader.fail("item identifier \(value): \(error)", at: start) }
      let hash = id.hashValue
      guard tables.itemIndex(of: id, hash: hash) == nil else { throw reader.fail("item \(value) listed twice", at: start) }
      _ = tables.appendItem(id, hash: hash)
      switch try reader.byte() {
      case 0: break
      case 1: tables.itemContents[tables.itemContents.count - 1] = try scratch.readValue(&reader, marker: nil)
      case let flag: throw reader.fail("content flag \(flag)", at: reader.offset - 1)
      }
    }
    let stringCount = try reader.count("string count", minimumBytes: 2)
    tables.strings.reserveCapacity(stringCount)
    for _ in 0..<stringCount {
      let start = reader.offset
      let text = try Self.rawString(&reader)
      let hash = text.hashValue
      guard tables.strings.firstIndex(of: text, hash: hash) == nil else { throw reader.fail("string listed twice", at: start) }
      tables.strings.append(text, hash: hash)
    }
    let shapeCount = try reader.count("shape count")
    for _ in 0..<shapeCount {
      let start = reader.offset
      let keyCount = try reader.count("key count", minimumBytes: 2)
      var keys: [String] = []
      keys.reserveCapacity(keyCount)
      for _ in 0..<keyCount { keys.append(try Self.rawString(&reader)) }
      guard tables.shapes[keys] == nil else { throw reader.fail("shape listed twice", at: start) }
      tables.shapes[keys] = tables.shapeList.count
      tables.shapeList.append(keys)
    }
    tables.lastTimestamp = try reader.zigzag()
    tables.newItemBase = try reader.zigzag()
    guard reader.offset == bytes.count else { throw reader.fail("\(bytes.count - reader.offset) bytes after the tables") }
    encoderTables = tables
  }

  /// A string as `writeRawString` wrote it.
  @inlinable
  static func rawString(_ reader: inout _ByteReader) throws(HistoryCodecError) -> String {
    let start = reader.offset
    guard try reader.byte() == _ValueTag.rawString else { throw reader.fail("not a string", at: start) }
    let count = try reader.count("string length", minimumBytes: 0)
    guard let text = string(utf8: try reader.take(count)) else { throw reader.fail("string is not UTF-8", at: start) }
    return text
  }
}
