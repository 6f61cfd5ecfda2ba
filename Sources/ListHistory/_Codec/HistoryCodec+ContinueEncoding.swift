import ListState

extension HistoryCodec {
  /// After decoding a stream, makes the encoder continue it: the encoder's intern tables become
  /// the ones the decoded records defined. The decoder's tables are emptied (their contents
  /// move to the encoder's): from here on the codec encodes.
  ///
  /// - Complexity: O(entries in the tables), on the replay's serial tail: each item's entry is
  ///   read field by field and its content moved, not copied (iterating the entries would copy
  ///   each whole, retaining and releasing its values, on a path every reopening takes).
  @inlinable
  mutating func continueEncodingAfterDecoding() {
    var tables = _EncoderTables<Section.ID, Item.ID>()
    tables.sectionList = decoderTables.sections
    for (index, id) in decoderTables.sections.enumerated() { tables.sections[id] = index }
    let itemCount = decoderTables.itemIDs.count
    tables.items.reserveCapacity(itemCount)
    tables.itemContents.reserveCapacity(itemCount)
    for index in 0..<itemCount {
      let id = decoderTables.itemIDs[index]
      tables.items.append(id, hash: id.hashValue)
      tables.itemContents.append(decoderTables.items[index].content.take())
    }
    tables.strings.reserveCapacity(decoderTables.strings.count)
    for text in decoderTables.strings { tables.strings.append(text, hash: text.hashValue) }
    tables.shapeList = decoderTables.shapes
    for (index, keys) in decoderTables.shapes.enumerated() { tables.shapes[keys] = index }
    // Whether a decoded content is the item's content at the head is not known (head moves).
    tables.currentContents = Array(repeating: false, count: itemCount)
    tables.lastTimestamp = decoderTables.lastTimestamp
    tables.newItemBase = decoderTables.newItemBase
    encoderTables = tables
    decoderTables = _DecoderTables()
  }
}
