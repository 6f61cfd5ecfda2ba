import ListState

/// Identifier references: `varint((index << (1 + flagBits)) | (flags << 1) | isNew)`; a new
/// identifier gets the next index of its table and is followed by its value. For a new item
/// identifier the bits above the flags say how: 0, a value; 1 (format 1.1), an integer stored as
/// `zigzag(value - base)`, where the base is the previous integer stored that way (0 after a
/// reset) — consecutive new identifiers then cost a byte.
extension HistoryCodec {
  @inlinable
  static var maximumOutlineDepth: Int { 2_000 }

  // MARK: Writing

  /// Writes an item identifier reference (defining it when new); returns its intern index.
  @inlinable
  @discardableResult
  mutating func writeItemID(_ id: Item.ID, flagBits: Int = 0, flags: UInt64 = 0, into writer: inout _ByteWriter)
    throws(HistoryCodecError) -> Int
  {
    try writeItemID(id, hash: id.hashValue, flagBits: flagBits, flags: flags, into: &writer)
  }

  /// ``writeItemID(_:flagBits:flags:into:)`` with the identifier's `hashValue` already computed.
  ///
  /// Format 1.1 writes a new identifier's value as a raw (not interned) string when it is one:
  /// it is defined once per table epoch and referred to by its item index afterwards, so a
  /// string intern entry only cost a hash and an insert per new item, for the same bytes.
  /// (Readers of any 1.x accept raw strings anywhere; 1.0 output stays as it was.)
  @inlinable
  @discardableResult
  mutating func writeItemID(_ id: Item.ID, hash: Int, flagBits: Int = 0, flags: UInt64 = 0, into writer: inout _ByteWriter)
    throws(HistoryCodecError) -> Int
  {
    if let existing = encoderTables.itemIndex(of: id, hash: hash) {
      writer.varint(UInt64(existing) << UInt64(1 + flagBits) | flags << 1)
      return existing
    }
    let value: JournalValue
    do { value = try itemCoding.idValue(id) } catch { throw .unencodable("item identifier \(id): \(error)") }
    let index = encoderTables.appendItem(id, hash: hash)
    if writesCompactForms, case .int(let number) = value {
      writer.varint(1 << UInt64(1 + flagBits) | flags << 1 | 1)
      writer.zigzag(number &- encoderTables.newItemBase)
      encoderTables.newItemBase = number
    } else {
      writer.varint(flags << 1 | 1)
      if writesCompactForms, case .string(let text) = value {
        writeRawString(text, into: &writer)
      } else {
        try writeValue(value, marker: nil, into: &writer)
      }
    }
    return index
  }

  @inlinable
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

  /// An item: its identifier (flag: the content is the identifier itself) and, unless flagged,
  /// its content, which the tables remember for the item.
  ///
  /// `known` is tables in which the item's remembered content may be known to be its current
  /// content (a checkpoint passes the tables it replaces): that content is then written without
  /// encoding the item again.
  @inlinable
  mutating func writeItem(_ item: Item, known: _EncoderTables<Section.ID, Item.ID>? = nil, into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    let hash = item.id.hashValue
    let values: (content: JournalValue, id: JournalValue)?
    if let known, itemCoding.identityElement == nil, !itemCoding.encodesContentCheaply,
      let content = Self.currentContent(of: item.id, hash: hash, in: known)
    {
      do { values = (content, try itemCoding.idValue(item.id)) } catch { throw .unencodable("item \(item.id): \(error)") }
    } else {
      values = try itemCoding.values(of: item, kind: "item")
    }
    guard let (content, id) = values else {
      let index = try writeItemID(item.id, hash: hash, flagBits: 1, flags: 1, into: &writer)
      return try rememberIdentity(of: item.id, index: index)
    }
    let index = try writeItemID(item.id, hash: hash, flagBits: 1, flags: content == id ? 1 : 0, into: &writer)
    if content != id { try writeValue(content, marker: id, into: &writer) }
    encoderTables.remember(content, forItem: index, current: tracksCurrentContents)
  }

  /// The remembered content of item `id` (whose `hashValue` is `hash`) in `tables` when it is
  /// known to be the item's current content (only a store that tracks current contents ever
  /// knows that).
  @inlinable
  static func currentContent(of id: Item.ID, hash: Int, in tables: _EncoderTables<Section.ID, Item.ID>) -> JournalValue? {
    guard let index = tables.itemIndex(of: id, hash: hash), tables.isCurrent(index) else { return nil }
    return tables.itemContents[index]
  }

  /// Remembers the identifier value as the content of an element that is its own identifier.
  @inlinable
  mutating func rememberIdentity(of id: Item.ID, index: Int) throws(HistoryCodecError) {
    do { encoderTables.remember(try itemCoding.idValue(id), forItem: index, current: tracksCurrentContents) } catch {
      throw .unencodable("item identifier \(id): \(error)")
    }
  }

  /// An item's content value as the tables remember contents: the identifier value for an
  /// element that is its own identifier.
  @inlinable
  func contentValue(of item: Item) throws(HistoryCodecError) -> (content: JournalValue, id: JournalValue?) {
    if let (content, id) = try itemCoding.values(of: item, kind: "item") { return (content, id) }
    do { return (try itemCoding.idValue(item.id), nil) } catch { throw .unencodable("item identifier \(item.id): \(error)") }
  }

  /// An item's content alone (its identifier is written elsewhere); `values` from ``contentValue(of:)``.
  @inlinable
  mutating func writeItemContent(_ values: (content: JournalValue, id: JournalValue?), into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    guard let id = values.id else { return writer.byte(_ValueTag.elementID) }
    try writeValue(values.content, marker: id, into: &writer)
  }

  /// A section: its identifier (flag: the content is the identifier itself) and, unless flagged, its content.
  @inlinable
  mutating func writeSection(_ section: Section, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    guard let (content, id) = try sectionCoding.values(of: section, kind: "section") else {
      return try writeSectionID(section.id, flagBits: 1, flags: 1, into: &writer)
    }
    try writeSectionID(section.id, flagBits: 1, flags: content == id ? 1 : 0, into: &writer)
    if content != id { try writeValue(content, marker: id, into: &writer) }
  }

  /// A section's content alone (its identifier is written elsewhere).
  @inlinable
  mutating func writeSectionContent(_ section: Section, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    guard let (content, id) = try sectionCoding.values(of: section, kind: "section") else {
      return writer.byte(_ValueTag.elementID)
    }
    try writeValue(content, marker: id, into: &writer)
  }

  /// A location: the container reference (flag: under a parent item) and the sibling index.
  @inlinable
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
  /// `known`: see ``writeItem(_:known:into:)``.
  @inlinable
  mutating func writeOutline(
    _ outline: ListOutline<Item>, known: _EncoderTables<Section.ID, Item.ID>? = nil, into writer: inout _ByteWriter
  ) throws(HistoryCodecError) {
    writer.varint(outline.roots.count)
    var stack: [(nodes: [ListOutline<Item>.Node], next: Int)] = [(outline.roots, 0)]
    while var top = stack.popLast() {
      guard top.next < top.nodes.count else { continue }
      let node = top.nodes[top.next]
      top.next += 1
      stack.append(top)
      writer.varint(UInt64(node.children.count) << 1 | (node.isExpanded ? 1 : 0))
      try writeItem(node.item, known: known, into: &writer)
      if !node.children.isEmpty {
        guard stack.count < Self.maximumOutlineDepth else {
          throw .unencodable("outline nests deeper than \(Self.maximumOutlineDepth) levels")
        }
        stack.append((node.children, 0))
      }
    }
  }

  /// A section's outline as ``writeOutline(_:known:into:)`` writes it (the same bytes), read
  /// straight from the snapshot: a checkpoint holds every item, and building the outline value
  /// first cost an allocation per parent and a copy of every item.
  @inlinable
  mutating func writeOutline(
    ofSection section: Section.ID, in snapshot: ListSnapshot<Section, Item>, known: _EncoderTables<Section.ID, Item.ID>?,
    into writer: inout _ByteWriter
  ) throws(HistoryCodecError) {
    writer.varint(snapshot._rootItemCount(inSection: section) ?? 0)
    do {
      _ = try snapshot._forEachPreorderItem(ofSection: section) { item, isExpanded, childCount, depth in
        guard depth < Self.maximumOutlineDepth else {
          throw HistoryCodecError.unencodable("outline nests deeper than \(Self.maximumOutlineDepth) levels")
        }
        writer.varint(UInt64(childCount) << 1 | (isExpanded ? 1 : 0))
        try writeItem(item, known: known, into: &writer)
      }
    } catch let error as HistoryCodecError {
      throw error
    } catch {
      throw .unencodable("\(error)")
    }
  }

  // MARK: Reading

  /// An item identifier: new (interned here) or a reference to one interned before. A reference
  /// reads only `_DecoderTables.itemIDs` (see there for why).
  @inlinable
  mutating func readItemID(header: UInt64, flagBits: Int, start: Int, _ reader: inout _ByteReader)
    throws(HistoryCodecError) -> Item.ID
  {
    if header & 1 == 1 {
      let value: JournalValue
      switch header >> UInt64(1 + flagBits) {
      case 0: value = try readValue(&reader, marker: nil)
      case 1:
        let number = decoderTables.newItemBase &+ (try reader.zigzag())
        decoderTables.newItemBase = number
        value = .int(number)
      default: throw reader.fail("new item identifier of unknown form \(header >> UInt64(1 + flagBits))", at: start)
      }
      let id: Item.ID
      do { id = try itemCoding.makeID(value) } catch { throw reader.fail("item identifier \(value): \(error)", at: start) }
      decoderTables.itemIDs.append(id)
      decoderTables.items.append(_DecodedItem(idValue: value))
      return id
    }
    let index = header >> UInt64(1 + flagBits)
    guard index < UInt64(decoderTables.itemIDs.count) else {
      throw reader.fail("item reference \(index) is not defined", at: start)
    }
    return decoderTables.itemIDs[Int(index)]
  }

  /// ``readItemID(header:flagBits:start:_:)`` and the identifier's journal value, for a reader
  /// that goes on to the item's content (whose entry in `_DecoderTables.items` it reads anyway).
  @inlinable
  mutating func readItemIDAndValue(header: UInt64, flagBits: Int, start: Int, _ reader: inout _ByteReader)
    throws(HistoryCodecError) -> (id: Item.ID, value: JournalValue)
  {
    let id = try readItemID(header: header, flagBits: flagBits, start: start, &reader)
    // Computed instead of read where it follows from the identifier: the entry is cold.
    if itemCoding.idValueFollowsFromID, let number = id as? Int { return (id, .int(Int64(number))) }
    return (id, decoderTables.items[itemIndex(header: header, flagBits: flagBits)].idValue)
  }

  /// The intern index of the item identifier `readItemID` returned last (new or referenced).
  @inlinable
  func itemIndex(header: UInt64, flagBits: Int) -> Int {
    header & 1 == 1 ? decoderTables.itemIDs.count - 1 : Int(header >> UInt64(1 + flagBits))
  }

  /// A plain item reference to an item whose content the tables remember: the remembered item.
  @inlinable
  mutating func readRememberedItem(_ reader: inout _ByteReader) throws(HistoryCodecError) -> (index: Int, item: Item) {
    let start = reader.offset
    let header = try reader.varint()
    _ = try readItemID(header: header, flagBits: 0, start: start, &reader)
    let index = itemIndex(header: header, flagBits: 0)
    guard let item = try rememberedItem(at: index, start: start, &reader) else {
      throw reader.fail("item reference \(index) has no remembered content", at: start)
    }
    return (index, item)
  }

  /// The item the tables remember at `index` (nil when none), decoding it now if a skipped
  /// checkpoint left only its content value; a content that does not decode fails at `start`.
  @inlinable
  mutating func rememberedItem(at index: Int, start: Int, _ reader: inout _ByteReader) throws(HistoryCodecError) -> Item? {
    // The item alone is read (not the whole entry): copying the entry retained and released
    // the content value too, a cache miss on a cold object for every remembered item.
    if let item = decoderTables.items[index].item { return item }
    guard let content = decoderTables.items[index].content else { return nil }
    return try makeItem(
      id: decoderTables.itemIDs[index], idValue: decoderTables.items[index].idValue, index: index, content: content,
      start: start, &reader)
  }

  /// Reads an item of a checkpoint whose state is not built: the tables learn its identifier and
  /// content value; the element itself is decoded only if a later record refers to its content.
  ///
  /// Why: a replay rebuilds every state from the commits, and a large list's checkpoint holds
  /// every item — through `Codable`, most of the replay's decoding, for elements that are
  /// mostly never asked for.
  @inlinable
  mutating func skipItem(_ reader: inout _ByteReader) throws(HistoryCodecError) {
    let start = reader.offset
    let header = try reader.varint()
    let (id, value) = try readItemIDAndValue(header: header, flagBits: 1, start: start, &reader)
    let index = itemIndex(header: header, flagBits: 1)
    if header & 2 != 0, let identity = itemCoding.identityElement {
      rememberDecoded(identity(id), content: value, forItem: index)
      return
    }
    let content = header & 2 != 0 ? value : try readValue(&reader, marker: value)
    // Left to the state, its item is never decoded from it (and no encoder keeps contents).
    if decodingMode == .leavingRememberedItemsToTheState { return }
    decoderTables.items[index].item = nil
    decoderTables.items[index].content = content  // kept either way: the item is decoded from it
  }

  @inlinable
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

  @inlinable
  mutating func readPlainItemID(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Item.ID {
    let start = reader.offset
    return try readItemID(header: reader.varint(), flagBits: 0, start: start, &reader)
  }

  @inlinable
  mutating func readPlainSectionID(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Section.ID {
    let start = reader.offset
    return try readSectionID(header: reader.varint(), flagBits: 0, start: start, &reader).id
  }

  /// An item (see ``writeItem(_:into:)``); the tables remember its content.
  @inlinable
  mutating func readItem(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Item {
    let start = reader.offset
    let header = try reader.varint()
    let (id, value) = try readItemIDAndValue(header: header, flagBits: 1, start: start, &reader)
    let index = itemIndex(header: header, flagBits: 1)
    if header & 2 != 0, let identity = itemCoding.identityElement {
      let item = identity(id)
      rememberDecoded(item, content: value, forItem: index)
      return item
    }
    return try makeItem(id: id, idValue: value, index: index, content: header & 2 != 0 ? value : nil, start: start, &reader)
  }

  /// Content of an item whose identifier is known (`content` given when implied by a flag); the
  /// tables remember it for the item at `index`.
  @inlinable
  mutating func makeItem(
    id: Item.ID, idValue: JournalValue, index: Int, content: JournalValue?, start: Int, _ reader: inout _ByteReader
  ) throws(HistoryCodecError) -> Item {
    let contentStart = reader.offset
    let value: JournalValue
    if let content { value = content } else { value = try readValue(&reader, marker: idValue) }
    let item: Item
    if value == idValue, let identity = itemCoding.identityElement {
      item = identity(id)
    } else {
      do {
        item = try itemCoding.make(id, value)
        guard item.id == id else { throw JournalValueError("content has identifier \(item.id), expected \(id)") }
      } catch { throw reader.fail("item \(idValue) content: \(error)", at: content == nil ? contentStart : start) }
    }
    rememberDecoded(item, content: value, forItem: index)
    return item
  }

  /// Old and new content of an updated item: its plain identifier reference, then two contents
  /// (or, `remembered`, only the new one: the old is the content the tables remember).
  @inlinable
  mutating func readItemUpdate(remembered: Bool, _ reader: inout _ByteReader) throws(HistoryCodecError) -> (old: Item, new: Item) {
    let start = reader.offset
    let header = try reader.varint()
    let (id, value) = try readItemIDAndValue(header: header, flagBits: 0, start: start, &reader)
    let index = itemIndex(header: header, flagBits: 0)
    if remembered && decodingMode == .leavingRememberedItemsToTheState {
      let new = try makeItem(id: id, idValue: value, index: index, content: nil, start: reader.offset, &reader)
      decoderTables.itemsFromState.append(_ItemFromState(event: decoderTables.currentEvent, id: id))
      return (new, new)  // the old one a stand-in
    }
    if remembered {
      // Taken out of the table, not copied: the new content replaces it there at once, so the
      // old item's storage (cold by now) is neither retained here nor released by that store.
      guard let old = try takeRememberedItem(at: index, start: start, &reader) else {
        throw reader.fail("item reference \(index) has no remembered content", at: start)
      }
      do {
        return (old, try makeItem(id: id, idValue: value, index: index, content: nil, start: reader.offset, &reader))
      } catch {
        decoderTables.items[index].item = old  // back where it was: a failed read leaves the item known
        throw error
      }
    }
    let old = try makeItem(id: id, idValue: value, index: index, content: nil, start: reader.offset, &reader)
    let new = try makeItem(id: id, idValue: value, index: index, content: nil, start: reader.offset, &reader)
    return (old, new)
  }

  /// ``rememberedItem(at:start:_:)``, moved out of the tables (the caller stores the item's
  /// next content there).
  @inlinable
  mutating func takeRememberedItem(at index: Int, start: Int, _ reader: inout _ByteReader) throws(HistoryCodecError) -> Item? {
    if let item = decoderTables.items[index].item.take() { return item }
    guard try rememberedItem(at: index, start: start, &reader) != nil else { return nil }
    return decoderTables.items[index].item.take()
  }

  @inlinable
  mutating func readSection(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Section {
    let start = reader.offset
    let header = try reader.varint()
    let (id, value) = try readSectionID(header: header, flagBits: 1, start: start, &reader)
    if header & 2 != 0, let identity = sectionCoding.identityElement { return identity(id) }
    return try makeSection(id: id, idValue: value, content: header & 2 != 0 ? value : nil, start: start, &reader)
  }

  @inlinable
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

  @inlinable
  mutating func readSectionUpdate(_ reader: inout _ByteReader) throws(HistoryCodecError) -> (old: Section, new: Section) {
    let start = reader.offset
    let (id, value) = try readSectionID(header: reader.varint(), flagBits: 0, start: start, &reader)
    let old = try makeSection(id: id, idValue: value, content: nil, start: reader.offset, &reader)
    let new = try makeSection(id: id, idValue: value, content: nil, start: reader.offset, &reader)
    return (old, new)
  }

  @inlinable
  mutating func readIndex(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Int {
    try reader.int(max: Int(Int32.max), "index")
  }

  @inlinable
  mutating func readLocation(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ListItemLocation<Section.ID, Item.ID> {
    let container = try readContainer(&reader)
    return ListItemLocation(container, index: try readIndex(&reader))
  }

  /// A container reference as ``writeLocation(_:into:)`` writes it (flag: under a parent item).
  @inlinable
  mutating func readContainer(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ListItemContainer<Section.ID, Item.ID> {
    let start = reader.offset
    let header = try reader.varint()
    if header & 2 != 0 { return .parent(try readItemID(header: header, flagBits: 1, start: start, &reader)) }
    return .section(try readSectionID(header: header, flagBits: 1, start: start, &reader).id)
  }

  @inlinable
  mutating func readOutline(_ reader: inout _ByteReader, checkpoint: Bool = false) throws(HistoryCodecError)
    -> ListOutline<Item>
  {
    typealias Node = ListOutline<Item>.Node
    typealias Frame = _OutlineFrame<Item>
    let rootCount = try reader.count("outline root", minimumBytes: 2)
    var stack = [Frame(item: nil, isExpanded: false, remaining: rootCount, children: [])]
    stack[0].children.reserveCapacity(rootCount)
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
      // A checkpoint's items are read without interning them (see `readCheckpointItem`).
      let item = checkpoint ? try readCheckpointItem(&reader) : try readItem(&reader)
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

extension HistoryCodec {
  /// Reads an outline (as ``readOutline(_:)``, with the same checks and table updates) without
  /// building it.
  @inlinable
  mutating func skipOutline(_ reader: inout _ByteReader) throws(HistoryCodecError) {
    var remaining = [try reader.count("outline root", minimumBytes: 2)]
    while let last = remaining.last {
      if last == 0 {
        remaining.removeLast()
        continue
      }
      remaining[remaining.count - 1] -= 1
      let start = reader.offset
      let header = try reader.varint()
      let childCount = header >> 1
      guard childCount <= UInt64(reader.remaining / 2) else {
        throw reader.fail("outline child count \(childCount) exceeds the remaining bytes", at: start)
      }
      try skipItem(&reader)
      if childCount > 0 {
        guard remaining.count < Self.maximumOutlineDepth else {
          throw reader.fail("outline nests deeper than \(Self.maximumOutlineDepth) levels", at: start)
        }
        remaining.append(Int(childCount))
      }
    }
  }
}

/// One level of an outline being decoded.
@usableFromInline
struct _OutlineFrame<Item: ListElement> {
  @usableFromInline var item: Item?
  @usableFromInline var isExpanded: Bool
  @usableFromInline var remaining: Int
  @usableFromInline var children: [ListOutline<Item>.Node]

  @inlinable
  init(item: Item? = nil, isExpanded: Bool, remaining: Int, children: [ListOutline<Item>.Node]) {
    self.item = item
    self.isExpanded = isExpanded
    self.remaining = remaining
    self.children = children
  }
}
