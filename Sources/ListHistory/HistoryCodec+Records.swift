import ListState

/// Event operation codes.
@usableFromInline
enum _EventCode {
  @usableFromInline static let insertSection: UInt8 = 0x01
  @usableFromInline static let deleteSection: UInt8 = 0x02
  @usableFromInline static let moveSection: UInt8 = 0x03
  @usableFromInline static let updateSection: UInt8 = 0x04
  @usableFromInline static let replaceSection: UInt8 = 0x05
  @usableFromInline static let reloadSections: UInt8 = 0x06
  @usableFromInline static let insertItems: UInt8 = 0x10
  @usableFromInline static let deleteItems: UInt8 = 0x11
  @usableFromInline static let moveItem: UInt8 = 0x12
  @usableFromInline static let updateItem: UInt8 = 0x13
  @usableFromInline static let replaceItem: UInt8 = 0x14
  @usableFromInline static let expandCollapsed: UInt8 = 0x15
  @usableFromInline static let expandExpanded: UInt8 = 0x16
  @usableFromInline static let collapseExpanded: UInt8 = 0x17
  @usableFromInline static let collapseCollapsed: UInt8 = 0x18
  @usableFromInline static let reloadItems: UInt8 = 0x19
  @usableFromInline static let reconfigureItems: UInt8 = 0x1A
  /// One collapsed leaf inserted / deleted: the common case, without the outline framing.
  @usableFromInline static let insertLeaf: UInt8 = 0x1B
  @usableFromInline static let deleteLeaf: UInt8 = 0x1C
  /// Format 1.1: an update / a leaf delete whose old content is the one the tables remember for
  /// the item, which is then not stored (`updateItem`: the new content only; `deleteLeaf`: the
  /// location and a plain item reference).
  @usableFromInline static let updateRememberedItem: UInt8 = 0x1D
  @usableFromInline static let deleteRememberedLeaf: UInt8 = 0x1E
}

/// Commit record flags (the first payload byte).
@usableFromInline
enum _CommitFlag {
  @usableFromInline static let label: UInt8 = 0x01
  @usableFromInline static let explicitParent: UInt8 = 0x02
  /// Format 1.1: exactly one event, its count not stored.
  @usableFromInline static let singleEvent: UInt8 = 0x04
  @usableFromInline static let known: UInt8 = 0x07
}

extension HistoryCodec {
  /// Encodes one record. On error the codec's tables are as before the call.
  ///
  /// ```swift
  /// let record = try codec.encode(.commit(commit), sequence: 12)
  /// ```
  /// - Complexity: O(size of the record), with O(1) expected intern lookups.
  @inlinable
  public mutating func encode(_ content: HistoryRecordContent<Section, Item>, sequence: UInt64) throws(HistoryCodecError)
    -> HistoryRecord
  {
    try encode(content, sequence: sequence, from: markEncoder())
  }

  /// ``encode(_:sequence:)`` with the mark the caller took just before (a store takes one to
  /// roll back a record its sink refuses, and marking twice would be wasted work every commit).
  @inlinable
  mutating func encode(_ content: HistoryRecordContent<Section, Item>, sequence: UInt64, from mark: EncoderMark)
    throws(HistoryCodecError) -> HistoryRecord
  {
    var writer = _ByteWriter()
    do {
      switch content {
      case .commit(let commit):
        try writeCommit(commit, into: &writer)
        return HistoryRecord(kind: .commit, sequence: sequence, version: UInt64(commit.version.rawValue), payload: writer.bytes)
      case .headMove(let move):
        writeHeadMove(move, into: &writer)
        return HistoryRecord(
          kind: .headMove, sequence: sequence, version: UInt64(move.latestVersion.rawValue), payload: writer.bytes)
      case .checkpoint(let checkpoint):
        // The replaced tables still know which items' contents are current: those are written
        // from there instead of being encoded again.
        let previous = tracksCurrentContents ? encoderTables : nil
        reset()
        try writeCheckpoint(checkpoint, known: previous, into: &writer)
        return HistoryRecord(
          kind: .checkpoint, sequence: sequence, version: UInt64(checkpoint.latestVersion.rawValue), payload: writer.bytes)
      case .gap(let gap):
        // No table is read or written: the checkpoint that follows a gap resets them.
        writer.varint(gap.lostCount)
        // A repair's gap keeps its 1.2 form; only a retention gap carries its reason.
        if gap.reason != .damage { writer.varint(Int(gap.reason.rawValue)) }
        return HistoryRecord(kind: .gap, sequence: sequence, version: UInt64(gap.latestVersion.rawValue), payload: writer.bytes)
      }
    } catch {
      if case .checkpoint = content {} else { rollBackEncoder(to: mark) }
      throw error
    }
  }

  /// Decodes one record (decoding a checkpoint resets the tables first). Total: malformed
  /// bytes give ``HistoryCodecError/malformed(offset:reason:)``; trailing bytes are an error.
  ///
  /// - Complexity: O(size of the payload).
  @inlinable
  public mutating func decode(_ record: HistoryRecord) throws(HistoryCodecError) -> HistoryRecordContent<Section, Item> {
    try decode(record, checkpointState: true)
  }

  /// `decode(_:)`; without `checkpointState` a checkpoint's elements only update the tables and
  /// its snapshot is left empty — for a replay, which rebuilds every state from the commits and
  /// needs a checkpoint only to keep decoding what follows it. Its items' contents are then
  /// converted to elements only when a later record refers to them (an undecodable content fails
  /// that record).
  ///
  /// ```swift
  /// _ = try codec.decode(record, checkpointState: false)   // tables in step, no snapshot built
  /// ```
  /// - Complexity: O(size of the payload); building a checkpoint's snapshot is skipped.
  @inlinable
  public mutating func decode(_ record: HistoryRecord, checkpointState: Bool) throws(HistoryCodecError)
    -> HistoryRecordContent<Section, Item>
  {
    var events: [ListEvent<Section, Item>] = []
    let content = try decode(record, checkpointState: checkpointState, appendingEventsTo: &events, reserving: true)
    guard case .commit(var commit) = content else { return content }
    commit.events = events
    return .commit(commit)
  }

  /// ``decode(_:checkpointState:)`` for a replay that keeps the events of many commits in one
  /// buffer: a commit's events are appended to `events`, and its ``HistoryCommit/events`` are
  /// left empty. A commit's events otherwise each need an array of their own, allocated by the
  /// decoding thread and freed by the folding one once the history took the events over.
  /// `reserving`: see ``readCommit(version:_:appendingEventsTo:reserving:)``.
  @inlinable
  mutating func decode(
    _ record: HistoryRecord, checkpointState: Bool, appendingEventsTo events: inout [ListEvent<Section, Item>],
    reserving: Bool = false
  ) throws(HistoryCodecError) -> HistoryRecordContent<Section, Item> {
    var reader = _ByteReader(record.payload)
    guard record.version <= UInt64(Int32.max) else { throw reader.fail("record version \(record.version) out of range") }
    let version = Version(Int(record.version))
    let content: HistoryRecordContent<Section, Item>
    switch record.kind {
    case .commit: content = .commit(try readCommit(version: version, &reader, appendingEventsTo: &events, reserving: reserving))
    case .headMove: content = .headMove(try readHeadMove(latest: version, &reader))
    case .checkpoint:
      // A replay (which skips checkpoints' states) reads the whole stream with a codec of its
      // own: its tables keep their storage for the next stretch. A codec that builds states may
      // be a copy that shares its tables (a time travel's cache): those are dropped, not copied.
      reset(keepingDecoderStorage: !checkpointState)
      // The checkpoint after a gap is where the history resumes: a replay needs its state.
      let buildingState = checkpointState || resumesAfterGap
      resumesAfterGap = false
      content = .checkpoint(try readCheckpoint(latest: version, buildingState: buildingState, &reader))
    case .gap:
      // Version 0 (the empty list) is never lost.
      let lostCount = try reader.int(max: version.rawValue, "lost version count")
      var reason = HistoryGap.Reason.damage
      if !reader.isAtEnd {
        let code = try reader.int(max: Int(UInt8.max), "gap reason")
        guard let known = HistoryGap.Reason(rawValue: UInt8(code)) else { throw reader.fail("unknown gap reason \(code)") }
        reason = known
      }
      resumesAfterGap = true
      content = .gap(HistoryGap(latestVersion: version, lostCount: lostCount, reason: reason))
    }
    guard reader.isAtEnd else { throw reader.fail("\(reader.remaining) unexpected trailing bytes") }
    return content
  }

  /// Encodes events alone (no record framing), continuing the intern tables.
  @inlinable
  public mutating func encode(events: some Sequence<ListEvent<Section, Item>>) throws(HistoryCodecError) -> [UInt8] {
    var writer = _ByteWriter()
    for event in events { try writeEvent(event, into: &writer) }
    return writer.bytes
  }

  /// Decodes events written by ``encode(events:)``.
  @inlinable
  public mutating func decodeEvents(_ bytes: [UInt8]) throws(HistoryCodecError) -> [ListEvent<Section, Item>] {
    var reader = _ByteReader(bytes)
    var events: [ListEvent<Section, Item>] = []
    while !reader.isAtEnd { events.append(try readEvent(&reader)) }
    return events
  }

  @inlinable
  static func millis(_ seconds: Double) -> Int64 {
    let scaled = (seconds * 1000).rounded()
    return scaled.isFinite ? Int64(clamping: Int64(exactly: scaled) ?? (scaled > 0 ? .max : .min)) : 0
  }

  // MARK: Records

  @inlinable
  mutating func writeCommit(_ commit: HistoryCommit<Section, Item>, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    let version = commit.version.rawValue
    guard commit.parent.rawValue >= 0, commit.parent.rawValue < version else {
      throw .unencodable("commit \(commit.version) has parent \(commit.parent)")
    }
    let implicitParent = commit.parent.rawValue == version - 1
    let single = writesCompactForms && commit.events.count == 1
    writer.byte(
      (commit.label != nil ? _CommitFlag.label : 0) | (implicitParent ? 0 : _CommitFlag.explicitParent)
        | (single ? _CommitFlag.singleEvent : 0))
    if !implicitParent { writer.varint(version - 1 - commit.parent.rawValue) }
    let millis = Self.millis(commit.timestamp)
    writer.zigzag(millis &- encoderTables.lastTimestamp)
    encoderTables.lastTimestamp = millis
    if let label = commit.label { writeString(label, into: &writer) }
    if !single { writer.varint(commit.events.count) }
    // By index, not `for event in`: the iterator hands out each event as an owned copy (a
    // call to the enum's generic copy witness per event); a subscript argument is borrowed.
    let events = commit.events
    for index in events.indices { try writeEvent(events[index], into: &writer) }
  }

  /// A commit, its events appended to `events` (the returned commit's own are left empty);
  /// `reserving` sizes `events` for them first (for a buffer of one commit only: reserving in a
  /// shared buffer would grow it one commit at a time).
  @inlinable
  mutating func readCommit(
    version: Version, _ reader: inout _ByteReader, appendingEventsTo events: inout [ListEvent<Section, Item>], reserving: Bool
  ) throws(HistoryCodecError) -> HistoryCommit<Section, Item> {
    guard version.rawValue >= 1 else { throw reader.fail("commit record with version \(version)") }
    let flags = try reader.byte()
    guard flags & ~_CommitFlag.known == 0 else { throw reader.fail("unknown commit flags 0x\(String(flags, radix: 16))", at: 0) }
    var parent = version.rawValue - 1
    if flags & _CommitFlag.explicitParent != 0 { parent -= try reader.int(max: version.rawValue - 1, "parent distance") }
    let millis = decoderTables.lastTimestamp &+ (try reader.zigzag())
    decoderTables.lastTimestamp = millis
    var label: String?
    if flags & _CommitFlag.label != 0 {
      let start = reader.offset
      guard case .string(let text) = try readValue(&reader, marker: nil) else { throw reader.fail("label is not a string", at: start) }
      label = text
    }
    let count = flags & _CommitFlag.singleEvent != 0 ? 1 : try reader.count("event")
    if reserving { events.reserveCapacity(events.count + count) }
    for _ in 0..<count {
      decoderTables.currentEvent = events.count
      events.append(try readEvent(&reader))
    }
    return HistoryCommit(
      version: version, parent: Version(parent), timestamp: Double(millis) / 1000, label: label, events: [])
  }

  @inlinable
  mutating func writeHeadMove(_ move: HistoryHeadMove, into writer: inout _ByteWriter) {
    writer.byte(move.kind.rawValue)
    writer.varint(move.latestVersion.rawValue - move.from.rawValue)
    writer.varint(move.latestVersion.rawValue - move.to.rawValue)
    let millis = Self.millis(move.timestamp)
    writer.zigzag(millis &- encoderTables.lastTimestamp)
    encoderTables.lastTimestamp = millis
  }

  @inlinable
  mutating func readHeadMove(latest: Version, _ reader: inout _ByteReader) throws(HistoryCodecError) -> HistoryHeadMove {
    let kindOffset = reader.offset
    guard let kind = HistoryHeadMove.Kind(rawValue: try reader.byte()) else {
      throw reader.fail("unknown head-move kind", at: kindOffset)
    }
    let from = latest.rawValue - (try reader.int(max: latest.rawValue, "head-move source distance"))
    let to = latest.rawValue - (try reader.int(max: latest.rawValue, "head-move target distance"))
    let millis = decoderTables.lastTimestamp &+ (try reader.zigzag())
    decoderTables.lastTimestamp = millis
    return HistoryHeadMove(
      kind: kind, from: Version(from), to: Version(to), latestVersion: latest, timestamp: Double(millis) / 1000)
  }

  /// A checkpoint: the head's distance, then every section with its outline. `known`: tables
  /// whose current contents may be reused (see ``writeItem(_:known:into:)``).
  @inlinable
  mutating func writeCheckpoint(
    _ checkpoint: HistoryCheckpoint<Section, Item>, known: _EncoderTables<Section.ID, Item.ID>? = nil,
    into writer: inout _ByteWriter
  ) throws(HistoryCodecError) {
    writer.varint(checkpoint.latestVersion.rawValue - checkpoint.head.rawValue)
    let sections = checkpoint.snapshot.sections
    writer.varint(sections.count)
    // Every item gets an intern entry: size the tables once instead of growing them. Strings
    // too, as many as the replaced tables held (mostly contents the items still have).
    let itemCount = checkpoint.snapshot.numberOfItems
    encoderTables.items.reserveCapacity(itemCount)
    encoderTables.itemContents.reserveCapacity(itemCount)
    encoderTables.currentContents.reserveCapacity(itemCount)
    if let known { encoderTables.strings.reserveCapacity(min(known.strings.count, 2 * itemCount + 64)) }
    for section in sections {
      try writeSection(section, into: &writer)
      try writeOutline(ofSection: section.id, in: checkpoint.snapshot, known: known, into: &writer)
    }
  }

  @inlinable
  mutating func readCheckpoint(latest: Version, buildingState: Bool = true, _ reader: inout _ByteReader)
    throws(HistoryCodecError) -> HistoryCheckpoint<Section, Item>
  {
    let head = latest.rawValue - (try reader.int(max: latest.rawValue, "checkpoint head distance"))
    let count = try reader.count("section", minimumBytes: 2)
    var snapshot = ListSnapshot<Section, Item>()
    for _ in 0..<count {
      let start = reader.offset
      let section = try readSection(&reader)
      guard buildingState else {
        try skipOutline(&reader)
        continue
      }
      let outline = try readOutline(&reader)
      do {
        try snapshot.appendSections([section])
        if !outline.roots.isEmpty { try snapshot.append(outline, toSection: section.id) }
      } catch { throw reader.fail("checkpoint section \(section.id): \(error)", at: start) }
    }
    return HistoryCheckpoint(head: Version(head), latestVersion: latest, snapshot: snapshot)
  }

  // MARK: Events

  @inlinable
  mutating func writeEvent(_ event: ListEvent<Section, Item>, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    switch event {
    case .insertSection(let section, let items, let index), .deleteSection(let section, let items, let index):
      if case .insertSection = event { writer.byte(_EventCode.insertSection) } else { writer.byte(_EventCode.deleteSection) }
      try writeSection(section, into: &writer)
      writer.varint(index)
      try writeOutline(items, into: &writer)
    case .moveSection(let id, let from, let to):
      writer.byte(_EventCode.moveSection)
      try writeSectionID(id, into: &writer)
      writer.varint(from)
      writer.varint(to)
    case .updateSection(let old, let new):
      guard old.id == new.id else { throw .unencodable("section update changes identifier \(old.id) to \(new.id)") }
      writer.byte(_EventCode.updateSection)
      try writeSectionID(old.id, into: &writer)
      try writeSectionContent(old, into: &writer)
      try writeSectionContent(new, into: &writer)
    case .replaceSection(let old, let new):
      writer.byte(_EventCode.replaceSection)
      try writeSection(old, into: &writer)
      try writeSection(new, into: &writer)
    case .reloadSections(let ids):
      writer.byte(_EventCode.reloadSections)
      writer.varint(ids.count)
      for id in ids { try writeSectionID(id, into: &writer) }
    case .insertItems(let outline, let location), .deleteItems(let outline, let location):
      let isInsert = if case .insertItems = event { true } else { false }
      if outline.roots.count == 1, let root = outline.roots.first, root.children.isEmpty, !root.isExpanded {
        if !isInsert, writesCompactForms, let index = encoderTables.itemIndex(of: root.item.id),
          let remembered = encoderTables.itemContents[index],
          try encoderTables.isCurrent(index) ? true : contentValue(of: root.item).content == remembered
        {
          writer.byte(_EventCode.deleteRememberedLeaf)
          try writeLocation(location, into: &writer)
          writer.varint(UInt64(index) << 1)
          return
        }
        writer.byte(isInsert ? _EventCode.insertLeaf : _EventCode.deleteLeaf)
        try writeLocation(location, into: &writer)
        try writeItem(root.item, into: &writer)
      } else {
        writer.byte(isInsert ? _EventCode.insertItems : _EventCode.deleteItems)
        try writeLocation(location, into: &writer)
        try writeOutline(outline, into: &writer)
      }
    case .moveItem(let id, let from, let to):
      writer.byte(_EventCode.moveItem)
      try writeItemID(id, into: &writer)
      try writeLocation(from, into: &writer)
      try writeLocation(to, into: &writer)
    case .updateItem(let old, let new):
      guard old.id == new.id else { throw .unencodable("item update changes identifier \(old.id) to \(new.id)") }
      // One lookup of the identifier serves the whole event. The old content is encoded only
      // when the tables do not know it is the remembered one.
      let hash = old.id.hashValue
      var index = encoderTables.itemIndex(of: old.id, hash: hash)
      let known = index.map(encoderTables.isCurrent) ?? false
      var oldValues: (content: JournalValue, id: JournalValue?)?
      if !known { oldValues = try contentValue(of: old) }
      let newValues = try contentValue(of: new)
      if writesCompactForms, let remembered = index, known || encoderTables.itemContents[remembered] == oldValues?.content {
        writer.byte(_EventCode.updateRememberedItem)
        writer.varint(UInt64(remembered) << 1)
      } else {
        writer.byte(_EventCode.updateItem)
        index = try writeItemID(old.id, hash: hash, into: &writer)
        if oldValues == nil { oldValues = try contentValue(of: old) }
        try writeItemContent(oldValues!, into: &writer)
      }
      try writeItemContent(newValues, into: &writer)
      encoderTables.remember(newValues.content, forItem: index!, current: tracksCurrentContents)
    case .replaceItem(let old, let new):
      writer.byte(_EventCode.replaceItem)
      try writeItem(old, into: &writer)
      try writeItem(new, into: &writer)
    case .expand(let id, let wasExpanded):
      writer.byte(wasExpanded ? _EventCode.expandExpanded : _EventCode.expandCollapsed)
      try writeItemID(id, into: &writer)
    case .collapse(let id, let wasExpanded):
      writer.byte(wasExpanded ? _EventCode.collapseExpanded : _EventCode.collapseCollapsed)
      try writeItemID(id, into: &writer)
    case .reloadItems(let ids), .reconfigureItems(let ids):
      if case .reloadItems = event { writer.byte(_EventCode.reloadItems) } else { writer.byte(_EventCode.reconfigureItems) }
      writer.varint(ids.count)
      for id in ids { try writeItemID(id, into: &writer) }
    }
  }

  @inlinable
  mutating func readEvent(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ListEvent<Section, Item> {
    let start = reader.offset
    let code = try reader.byte()
    switch code {
    case _EventCode.insertSection, _EventCode.deleteSection:
      let section = try readSection(&reader)
      let index = try readIndex(&reader)
      let items = try readOutline(&reader)
      return code == _EventCode.insertSection
        ? .insertSection(section, items: items, at: index) : .deleteSection(section, items: items, at: index)
    case _EventCode.moveSection:
      let id = try readPlainSectionID(&reader)
      let from = try readIndex(&reader)
      return .moveSection(id, from: from, to: try readIndex(&reader))
    case _EventCode.updateSection:
      let (old, new) = try readSectionUpdate(&reader)
      return .updateSection(old: old, new: new)
    case _EventCode.replaceSection:
      let old = try readSection(&reader)
      return .replaceSection(old: old, new: try readSection(&reader))
    case _EventCode.reloadSections:
      let count = try reader.count("section")
      var ids: [Section.ID] = []
      ids.reserveCapacity(count)
      for _ in 0..<count { ids.append(try readPlainSectionID(&reader)) }
      return .reloadSections(ids)
    case _EventCode.insertItems, _EventCode.deleteItems:
      let location = try readLocation(&reader)
      let outline = try readOutline(&reader)
      return code == _EventCode.insertItems ? .insertItems(outline, at: location) : .deleteItems(outline, from: location)
    case _EventCode.insertLeaf, _EventCode.deleteLeaf:
      let location = try readLocation(&reader)
      let outline = ListOutline([.init(try readItem(&reader))])
      return code == _EventCode.insertLeaf ? .insertItems(outline, at: location) : .deleteItems(outline, from: location)
    case _EventCode.deleteRememberedLeaf:
      let location = try readLocation(&reader)
      if decodingMode == .leavingRememberedItemsToTheState {
        let id = try readPlainItemID(&reader)
        decoderTables.itemsFromState.append(_ItemFromState(event: decoderTables.currentEvent, id: id))
        return .deleteItems(ListOutline(), from: location)
      }
      return .deleteItems(ListOutline([.init(try readRememberedItem(&reader).item)]), from: location)
    case _EventCode.moveItem:
      let id = try readPlainItemID(&reader)
      let from = try readLocation(&reader)
      return .moveItem(id, from: from, to: try readLocation(&reader))
    case _EventCode.updateItem, _EventCode.updateRememberedItem:
      let (old, new) = try readItemUpdate(remembered: code == _EventCode.updateRememberedItem, &reader)
      return .updateItem(old: old, new: new)
    case _EventCode.replaceItem:
      let old = try readItem(&reader)
      return .replaceItem(old: old, new: try readItem(&reader))
    case _EventCode.expandCollapsed: return .expand(try readPlainItemID(&reader), wasExpanded: false)
    case _EventCode.expandExpanded: return .expand(try readPlainItemID(&reader), wasExpanded: true)
    case _EventCode.collapseExpanded: return .collapse(try readPlainItemID(&reader), wasExpanded: true)
    case _EventCode.collapseCollapsed: return .collapse(try readPlainItemID(&reader), wasExpanded: false)
    case _EventCode.reloadItems, _EventCode.reconfigureItems:
      let count = try reader.count("item")
      var ids: [Item.ID] = []
      ids.reserveCapacity(count)
      for _ in 0..<count { ids.append(try readPlainItemID(&reader)) }
      return code == _EventCode.reloadItems ? .reloadItems(ids) : .reconfigureItems(ids)
    default:
      throw reader.fail("unknown event code 0x\(String(code, radix: 16))", at: start)
    }
  }
}
