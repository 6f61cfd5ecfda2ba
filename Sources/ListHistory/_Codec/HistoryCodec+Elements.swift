import ListState

/// Identifier references: `varint((index << (1 + flagBits)) | (flags << 1) | isNew)`; a new
/// identifier is followed by its value and gets the next index of its table.
extension HistoryCodec {
  static var maximumOutlineDepth: Int { 2_000 }

  // MARK: Writing

  mutating func writeItemID(_ id: Item.ID, flagBits: Int = 0, flags: UInt64 = 0, into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    if let index = encoderTables.items[id] {
      writer.varint(UInt64(index) << UInt64(1 + flagBits) | flags << 1)
      return
    }
    let value: JournalValue
    do { value = try itemCoding.idValue(id) } catch { throw .unencodable("item identifier \(id): \(error)") }
    encoderTables.items[id] = encoderTables.itemList.count
    encoderTables.itemList.append(id)
    writer.varint(flags << 1 | 1)
    try writeValue(value, marker: nil, into: &writer)
  }

  mutating func writeSectionID(_ id: Section.ID, flagBits: Int = 0, flags: UInt64 = 0, into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    if let index = encoderTables.sections[id] {
      writer.varint(UInt64(index) << UInt64(1 + flagBits) | flags << 1)
      return
    }
    let value: JournalValue
    do { value = try sectionCoding.idValue(id) } catch { throw .unencodable("section identifier \(id): \(error)") }
    encoderTables.sections[id] = encoderTables.sectionList.count
    encoderTables.sectionList.append(id)
    writer.varint(flags << 1 | 1)
    try writeValue(value, marker: nil, into: &writer)
  }

  /// An item: its identifier (flag: the content is the identifier itself) and, unless flagged, its content.
  mutating func writeItem(_ item: Item, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    guard let (content, id) = try itemCoding.values(of: item, kind: "item") else {
      return try writeItemID(item.id, flagBits: 1, flags: 1, into: &writer)
    }
    try writeItemID(item.id, flagBits: 1, flags: content == id ? 1 : 0, into: &writer)
    if content != id { try writeValue(content, marker: id, into: &writer) }
  }

  /// An item's content alone (its identifier is written elsewhere).
  mutating func writeItemContent(_ item: Item, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    guard let (content, id) = try itemCoding.values(of: item, kind: "item") else {
      return writer.byte(_ValueTag.elementID)
    }
    try writeValue(content, marker: id, into: &writer)
  }

  /// A section: its identifier (flag: the content is the identifier itself) and, unless flagged, its content.
  mutating func writeSection(_ section: Section, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    guard let (content, id) = try sectionCoding.values(of: section, kind: "section") else {
      return try writeSectionID(section.id, flagBits: 1, flags: 1, into: &writer)
    }
    try writeSectionID(section.id, flagBits: 1, flags: content == id ? 1 : 0, into: &writer)
    if content != id { try writeValue(content, marker: id, into: &writer) }
  }

  /// A section's content alone (its identifier is written elsewhere).
  mutating func writeSectionContent(_ section: Section, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    guard let (content, id) = try sectionCoding.values(of: section, kind: "section") else {
      return writer.byte(_ValueTag.elementID)
    }
    try writeValue(content, marker: id, into: &writer)
  }

  /// A location: the container reference (flag: under a parent item) and the sibling index.
  mutating func writeLocation(_ location: ListItemLocation<Section.ID, Item.ID>, into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    switch location.container {
    case .section(let id): try writeSectionID(id, flagBits: 1, flags: 0, into: &writer)
    case .parent(let id): try writeItemID(id, flagBits: 1, flags: 1, into: &writer)
    }
    writer.varint(location.index)
  }

  /// An outline in pre-order: root count, then per node `varint(childCount << 1 | expanded)` and the item.
  mutating func writeOutline(_ outline: ListOutline<Item>, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    writer.varint(outline.roots.count)
    var stack: [(nodes: [ListOutline<Item>.Node], next: Int)] = [(outline.roots, 0)]
    while var top = stack.popLast() {
      guard top.next < top.nodes.count else { continue }
      let node = top.nodes[top.next]
      top.next += 1
      stack.append(top)
      writer.varint(UInt64(node.children.count) << 1 | (node.isExpanded ? 1 : 0))
      try writeItem(node.item, into: &writer)
      if !node.children.isEmpty {
        guard stack.count < Self.maximumOutlineDepth else {
          throw .unencodable("outline nests deeper than \(Self.maximumOutlineDepth) levels")
        }
        stack.append((node.children, 0))
      }
    }
  }

  // MARK: Reading

  mutating func readItemID(header: UInt64, flagBits: Int, start: Int, _ reader: inout _ByteReader)
    throws(HistoryCodecError) -> (id: Item.ID, value: JournalValue)
  {
    if header & 1 == 1 {
      guard header >> UInt64(1 + flagBits) == 0 else { throw reader.fail("new item identifier with an index", at: start) }
      let value = try readValue(&reader, marker: nil)
      let id: Item.ID
      do { id = try itemCoding.makeID(value) } catch { throw reader.fail("item identifier \(value): \(error)", at: start) }
      decoderTables.items.append(id)
      decoderTables.itemValues.append(value)
      return (id, value)
    }
    let index = header >> UInt64(1 + flagBits)
    guard index < UInt64(decoderTables.items.count) else {
      throw reader.fail("item reference \(index) is not defined", at: start)
    }
    return (decoderTables.items[Int(index)], decoderTables.itemValues[Int(index)])
  }

  mutating func readSectionID(header: UInt64, flagBits: Int, start: Int, _ reader: inout _ByteReader)
    throws(HistoryCodecError) -> (id: Section.ID, value: JournalValue)
  {
    if header & 1 == 1 {
      guard header >> UInt64(1 + flagBits) == 0 else { throw reader.fail("new section identifier with an index", at: start) }
      let value = try readValue(&reader, marker: nil)
      let id: Section.ID
      do { id = try sectionCoding.makeID(value) } catch { throw reader.fail("section identifier \(value): \(error)", at: start) }
      decoderTables.sections.append(id)
      decoderTables.sectionValues.append(value)
      return (id, value)
    }
    let index = header >> UInt64(1 + flagBits)
    guard index < UInt64(decoderTables.sections.count) else {
      throw reader.fail("section reference \(index) is not defined", at: start)
    }
    return (decoderTables.sections[Int(index)], decoderTables.sectionValues[Int(index)])
  }

  mutating func readPlainItemID(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Item.ID {
    let start = reader.offset
    return try readItemID(header: reader.varint(), flagBits: 0, start: start, &reader).id
  }

  mutating func readPlainSectionID(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Section.ID {
    let start = reader.offset
    return try readSectionID(header: reader.varint(), flagBits: 0, start: start, &reader).id
  }

  mutating func readItem(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Item {
    let start = reader.offset
    let header = try reader.varint()
    let (id, value) = try readItemID(header: header, flagBits: 1, start: start, &reader)
    if header & 2 != 0, let identity = itemCoding.identityElement { return identity(id) }
    return try makeItem(id: id, idValue: value, content: header & 2 != 0 ? value : nil, start: start, &reader)
  }

  /// Content of an item whose identifier is known (`content` given when implied by a flag).
  mutating func makeItem(id: Item.ID, idValue: JournalValue, content: JournalValue?, start: Int, _ reader: inout _ByteReader)
    throws(HistoryCodecError) -> Item
  {
    let contentStart = reader.offset
    let value: JournalValue
    if let content { value = content } else { value = try readValue(&reader, marker: idValue) }
    if value == idValue, let identity = itemCoding.identityElement { return identity(id) }
    do {
      let item = try itemCoding.make(id, value)
      guard item.id == id else { throw JournalValueError("content has identifier \(item.id), expected \(id)") }
      return item
    } catch { throw reader.fail("item \(idValue) content: \(error)", at: content == nil ? contentStart : start) }
  }

  /// Old and new content of an updated item: its plain identifier reference, then two contents.
  mutating func readItemUpdate(_ reader: inout _ByteReader) throws(HistoryCodecError) -> (old: Item, new: Item) {
    let start = reader.offset
    let (id, value) = try readItemID(header: reader.varint(), flagBits: 0, start: start, &reader)
    let old = try makeItem(id: id, idValue: value, content: nil, start: reader.offset, &reader)
    let new = try makeItem(id: id, idValue: value, content: nil, start: reader.offset, &reader)
    return (old, new)
  }

  mutating func readSection(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Section {
    let start = reader.offset
    let header = try reader.varint()
    let (id, value) = try readSectionID(header: header, flagBits: 1, start: start, &reader)
    if header & 2 != 0, let identity = sectionCoding.identityElement { return identity(id) }
    return try makeSection(id: id, idValue: value, content: header & 2 != 0 ? value : nil, start: start, &reader)
  }

  mutating func makeSection(
    id: Section.ID, idValue: JournalValue, content: JournalValue?, start: Int, _ reader: inout _ByteReader
  ) throws(HistoryCodecError) -> Section {
    let contentStart = reader.offset
    let value: JournalValue
    if let content { value = content } else { value = try readValue(&reader, marker: idValue) }
    if value == idValue, let identity = sectionCoding.identityElement { return identity(id) }
    do {
      let section = try sectionCoding.make(id, value)
      guard section.id == id else { throw JournalValueError("content has identifier \(section.id), expected \(id)") }
      return section
    } catch { throw reader.fail("section \(idValue) content: \(error)", at: content == nil ? contentStart : start) }
  }

  mutating func readSectionUpdate(_ reader: inout _ByteReader) throws(HistoryCodecError) -> (old: Section, new: Section) {
    let start = reader.offset
    let (id, value) = try readSectionID(header: reader.varint(), flagBits: 0, start: start, &reader)
    let old = try makeSection(id: id, idValue: value, content: nil, start: reader.offset, &reader)
    let new = try makeSection(id: id, idValue: value, content: nil, start: reader.offset, &reader)
    return (old, new)
  }

  mutating func readIndex(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Int {
    try reader.int(max: Int(Int32.max), "index")
  }

  mutating func readLocation(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ListItemLocation<Section.ID, Item.ID> {
    let start = reader.offset
    let header = try reader.varint()
    let container: ListItemContainer<Section.ID, Item.ID>
    if header & 2 != 0 {
      container = .parent(try readItemID(header: header, flagBits: 1, start: start, &reader).id)
    } else {
      container = .section(try readSectionID(header: header, flagBits: 1, start: start, &reader).id)
    }
    return ListItemLocation(container, index: try readIndex(&reader))
  }

  mutating func readOutline(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ListOutline<Item> {
    typealias Node = ListOutline<Item>.Node
    typealias Frame = _OutlineFrame<Item>
    let rootCount = try reader.count("outline root", minimumBytes: 2)
    var stack = [Frame(item: nil, isExpanded: false, remaining: rootCount, children: [])]
    while true {
      if stack[stack.count - 1].remaining == 0 {
        let done = stack.removeLast()
        guard let item = done.item else { return ListOutline(done.children) }
        stack[stack.count - 1].children.append(Node(item, isExpanded: done.isExpanded, children: done.children))
        continue
      }
      stack[stack.count - 1].remaining -= 1
      let start = reader.offset
      let header = try reader.varint()
      let childCount = header >> 1
      guard childCount <= UInt64(reader.remaining / 2) else {
        throw reader.fail("outline child count \(childCount) exceeds the remaining bytes", at: start)
      }
      let item = try readItem(&reader)
      if childCount == 0 {
        stack[stack.count - 1].children.append(Node(item, isExpanded: header & 1 == 1))
      } else {
        guard stack.count < Self.maximumOutlineDepth else {
          throw reader.fail("outline nests deeper than \(Self.maximumOutlineDepth) levels", at: start)
        }
        stack.append(Frame(item: item, isExpanded: header & 1 == 1, remaining: Int(childCount), children: []))
      }
    }
  }
}

/// One level of an outline being decoded.
struct _OutlineFrame<Item: ListElement> {
  var item: Item?
  var isExpanded: Bool
  var remaining: Int
  var children: [ListOutline<Item>.Node]
}
