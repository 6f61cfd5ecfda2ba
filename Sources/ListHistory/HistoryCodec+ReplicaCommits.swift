import ListState

/// Replica operation codes.
@usableFromInline
enum _ReplicaOperationCode {
  @usableFromInline static let insertSection: UInt8 = 0x01
  @usableFromInline static let deleteSection: UInt8 = 0x02
  @usableFromInline static let moveSection: UInt8 = 0x03
  @usableFromInline static let updateSection: UInt8 = 0x04
  @usableFromInline static let replaceSection: UInt8 = 0x05
  @usableFromInline static let insertItems: UInt8 = 0x10
  @usableFromInline static let deleteItems: UInt8 = 0x11
  /// One collapsed leaf: the common case, without the outline framing.
  @usableFromInline static let insertLeaf: UInt8 = 0x12
  @usableFromInline static let deleteLeaf: UInt8 = 0x13
  @usableFromInline static let moveItem: UInt8 = 0x14
  @usableFromInline static let updateItem: UInt8 = 0x15
  @usableFromInline static let replaceItem: UInt8 = 0x16
  @usableFromInline static let setExpanded: UInt8 = 0x17
}

extension HistoryCodec {
  /// Encodes replica commits as one self-contained payload (the codec's tables are reset first,
  /// so the payload decodes on its own): what replicas exchange and a replica journal stores.
  ///
  /// Within a payload, a commit costs a few bytes beyond its operations: its replica as an index
  /// into the payload's replica table, its sequence, clock and time as differences from the
  /// previous commit, and its dependencies only when they changed since its replica's previous
  /// commit in the payload.
  ///
  /// ```swift
  /// var codec = HistoryCodec<String, String>()
  /// let bytes = try codec.encode(replicaCommits: commits)
  /// let again = try codec.decodeReplicaCommits(bytes)     // == commits
  /// ```
  /// - Complexity: O(size of the commits).
  @inlinable
  public mutating func encode(replicaCommits commits: [ReplicaCommit<Section, Item>]) throws(HistoryCodecError) -> [UInt8] {
    reset()
    var writer = _ByteWriter(capacity: 64 + commits.count * 16)
    var replicas: [ReplicaID] = []
    var replicaIndex: [ReplicaID: Int] = [:]
    func index(of replica: ReplicaID) -> Int {
      if let known = replicaIndex[replica] { return known }
      replicaIndex[replica] = replicas.count
      replicas.append(replica)
      return replicas.count - 1
    }
    for commit in commits {
      _ = index(of: commit.id.replica)
      for entry in commit.dependencies._entries { _ = index(of: entry.replica) }
      switch commit.origin {
      case .edit: break
      case .undo(let other), .redo(let other): _ = index(of: other.replica)
      }
    }
    writer.varint(commits.count)
    writer.varint(replicas.count)
    for replica in replicas { writer.raw(withUnsafeBytes(of: replica.rawValue.littleEndian) { Array($0) }) }
    var previousSequence: [Int: UInt64] = [:]
    var previousDependencies: [Int: ReplicaVersionVector] = [:]
    var previousClock: UInt64 = 0
    var previousMillis: Int64 = 0
    for commit in commits {
      let replica = replicaIndex[commit.id.replica]!
      let dependenciesChanged = previousDependencies[replica] != commit.dependencies
      var flags: UInt64 = (commit.label != nil ? 1 : 0) | (dependenciesChanged ? 2 : 0)
      switch commit.origin {
      case .edit: break
      case .undo: flags |= 4
      case .redo: flags |= 8
      }
      writer.varint(flags)
      writer.varint(replica)
      writer.zigzag(Int64(bitPattern: commit.id.sequence &- (previousSequence[replica] ?? 0)))
      writer.zigzag(Int64(bitPattern: commit.lamportClock &- previousClock))
      let millis = Int64((commit.timestamp * 1000).rounded())
      writer.zigzag(millis &- previousMillis)
      previousSequence[replica] = commit.id.sequence
      previousClock = commit.lamportClock
      previousMillis = millis
      if let label = commit.label { writeRawString(label, into: &writer) }
      if dependenciesChanged {
        previousDependencies[replica] = commit.dependencies
        writer.varint(commit.dependencies._entries.count)
        for entry in commit.dependencies._entries {
          writer.varint(replicaIndex[entry.replica]!)
          writer.varint(entry.sequence)
        }
      }
      switch commit.origin {
      case .edit: break
      case .undo(let other), .redo(let other):
        writer.varint(replicaIndex[other.replica]!)
        writer.varint(other.sequence)
      }
      writer.varint(commit.operations.count)
      let operations = commit.operations
      for position in operations.indices { try writeReplicaOperation(operations[position], into: &writer) }
    }
    return writer.bytes
  }

  /// Decodes what ``encode(replicaCommits:)`` wrote; malformed input fails with the byte
  /// offset, never traps.
  ///
  /// - Complexity: O(size of the payload).
  @inlinable
  public mutating func decodeReplicaCommits(_ bytes: [UInt8]) throws(HistoryCodecError) -> [ReplicaCommit<Section, Item>] {
    reset()
    var reader = _ByteReader(bytes)
    let count = try reader.count("replica commit", minimumBytes: 6)
    let replicaCount = try reader.count("replica", minimumBytes: 8)
    var replicas: [ReplicaID] = []
    replicas.reserveCapacity(replicaCount)
    for _ in 0..<replicaCount {
      let raw = try reader.take(8)
      var value: UInt64 = 0
      for (shift, byte) in raw.enumerated() { value |= UInt64(byte) << UInt64(8 * shift) }
      replicas.append(ReplicaID(rawValue: value))
    }
    func replica(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ReplicaID {
      let start = reader.offset
      let index = try reader.varint()
      guard index < UInt64(replicas.count) else { throw reader.fail("replica reference \(index) is not defined", at: start) }
      return replicas[Int(index)]
    }
    var commits: [ReplicaCommit<Section, Item>] = []
    commits.reserveCapacity(count)
    var previousSequence: [ReplicaID: UInt64] = [:]
    var previousDependencies: [ReplicaID: ReplicaVersionVector] = [:]
    var previousClock: UInt64 = 0
    var previousMillis: Int64 = 0
    for _ in 0..<count {
      let start = reader.offset
      let flags = try reader.varint()
      guard flags < 16, flags & 12 != 12 else { throw reader.fail("unknown replica commit flags \(flags)", at: start) }
      let id = try replica(&reader)
      let sequence = (previousSequence[id] ?? 0) &+ UInt64(bitPattern: try reader.zigzag())
      guard sequence > 0 else { throw reader.fail("replica commit sequence 0", at: start) }
      let clock = previousClock &+ UInt64(bitPattern: try reader.zigzag())
      let millis = previousMillis &+ (try reader.zigzag())
      previousSequence[id] = sequence
      previousClock = clock
      previousMillis = millis
      var label: String?
      if flags & 1 != 0 {
        let labelStart = reader.offset
        guard case .string(let text) = try readValue(&reader, marker: nil) else {
          throw reader.fail("label is not a string", at: labelStart)
        }
        label = text
      }
      var dependencies = previousDependencies[id] ?? ReplicaVersionVector()
      if flags & 2 != 0 {
        dependencies = ReplicaVersionVector()
        let entries = try reader.count("dependency", minimumBytes: 2)
        for _ in 0..<entries {
          let other = try replica(&reader)
          dependencies[other] = try reader.varint()
        }
        previousDependencies[id] = dependencies
      }
      var origin = ReplicaCommit<Section, Item>.Origin.edit
      if flags & 12 != 0 {
        let other = ReplicaCommitID(replica: try replica(&reader), sequence: try reader.varint())
        origin = flags & 4 != 0 ? .undo(of: other) : .redo(of: other)
      }
      let operationCount = try reader.count("replica operation", minimumBytes: 2)
      var operations: [ReplicaOperation<Section, Item>] = []
      operations.reserveCapacity(operationCount)
      for _ in 0..<operationCount { operations.append(try readReplicaOperation(&reader)) }
      commits.append(
        ReplicaCommit(
          id: ReplicaCommitID(replica: id, sequence: sequence), lamportClock: clock, dependencies: dependencies,
          timestamp: Double(millis) / 1000, label: label, origin: origin, operations: operations))
    }
    guard reader.isAtEnd else { throw reader.fail("\(reader.remaining) bytes after the last replica commit") }
    return commits
  }

  // MARK: Operations

  @inlinable
  mutating func writeReplicaOperation(_ operation: ReplicaOperation<Section, Item>, into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    typealias Code = _ReplicaOperationCode
    switch operation {
    case .insertSection(let section, let items, let after), .deleteSection(let section, let items, let after):
      if case .insertSection = operation { writer.byte(Code.insertSection) } else { writer.byte(Code.deleteSection) }
      try writeSection(section, into: &writer)
      try writeOutline(items, into: &writer)
      try writeSectionAnchor(after, into: &writer)
    case .moveSection(let id, let from, let to):
      writer.byte(Code.moveSection)
      try writeSectionID(id, into: &writer)
      try writeSectionAnchor(from, into: &writer)
      try writeSectionAnchor(to, into: &writer)
    case .updateSection(let old, let new), .replaceSection(let old, let new):
      if case .updateSection = operation { writer.byte(Code.updateSection) } else { writer.byte(Code.replaceSection) }
      try writeSection(old, into: &writer)
      try writeSection(new, into: &writer)
    case .insertItems(let outline, let anchor), .deleteItems(let outline, let anchor):
      let isInsert: Bool
      if case .insertItems = operation { isInsert = true } else { isInsert = false }
      if outline.roots.count == 1, outline.roots[0].children.isEmpty, !outline.roots[0].isExpanded {
        writer.byte(isInsert ? Code.insertLeaf : Code.deleteLeaf)
        try writeAnchor(anchor, into: &writer)
        try writeItem(outline.roots[0].item, into: &writer)
      } else {
        writer.byte(isInsert ? Code.insertItems : Code.deleteItems)
        try writeAnchor(anchor, into: &writer)
        try writeOutline(outline, into: &writer)
      }
    case .moveItem(let id, let from, let to):
      writer.byte(Code.moveItem)
      try writeItemID(id, into: &writer)
      try writeAnchor(from, into: &writer)
      try writeAnchor(to, into: &writer)
    case .updateItem(let old, let new), .replaceItem(let old, let new):
      if case .updateItem = operation { writer.byte(Code.updateItem) } else { writer.byte(Code.replaceItem) }
      try writeItem(old, into: &writer)
      try writeItem(new, into: &writer)
    case .setExpanded(let id, let expanded, let was):
      writer.byte(Code.setExpanded)
      try writeItemID(id, flagBits: 2, flags: (expanded ? 1 : 0) | (was ? 2 : 0), into: &writer)
    }
  }

  @inlinable
  mutating func readReplicaOperation(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ReplicaOperation<Section, Item> {
    typealias Code = _ReplicaOperationCode
    let start = reader.offset
    let code = try reader.byte()
    switch code {
    case Code.insertSection, Code.deleteSection:
      let section = try readSection(&reader)
      let items = try readOutline(&reader)
      let after = try readSectionAnchor(&reader)
      return code == Code.insertSection
        ? .insertSection(section, items: items, after: after) : .deleteSection(section, items: items, after: after)
    case Code.moveSection:
      let id = try readPlainSectionID(&reader)
      return .moveSection(id, from: try readSectionAnchor(&reader), to: try readSectionAnchor(&reader))
    case Code.updateSection, Code.replaceSection:
      let old = try readSection(&reader)
      let new = try readSection(&reader)
      guard code == Code.replaceSection || old.id == new.id else {
        throw reader.fail("section update changes the identifier \(old.id)", at: start)
      }
      return code == Code.updateSection ? .updateSection(old: old, new: new) : .replaceSection(old: old, new: new)
    case Code.insertItems, Code.deleteItems, Code.insertLeaf, Code.deleteLeaf:
      let anchor = try readAnchor(&reader)
      let outline: ListOutline<Item>
      if code == Code.insertLeaf || code == Code.deleteLeaf {
        outline = ListOutline([ListOutline<Item>.Node(try readItem(&reader))])
      } else {
        outline = try readOutline(&reader)
        guard !outline.roots.isEmpty else { throw reader.fail("an item insert or delete without items", at: start) }
      }
      return code == Code.insertItems || code == Code.insertLeaf
        ? .insertItems(outline, at: anchor) : .deleteItems(outline, from: anchor)
    case Code.moveItem:
      let id = try readPlainItemID(&reader)
      return .moveItem(id, from: try readAnchor(&reader), to: try readAnchor(&reader))
    case Code.updateItem, Code.replaceItem:
      let old = try readItem(&reader)
      let new = try readItem(&reader)
      guard code == Code.replaceItem || old.id == new.id else {
        throw reader.fail("item update changes the identifier \(old.id)", at: start)
      }
      return code == Code.updateItem ? .updateItem(old: old, new: new) : .replaceItem(old: old, new: new)
    case Code.setExpanded:
      let idStart = reader.offset
      let header = try reader.varint()
      let id = try readItemID(header: header, flagBits: 2, start: idStart, &reader)
      let flags = (header >> 1) & 3
      return .setExpanded(id, flags & 1 != 0, was: flags & 2 != 0)
    default:
      throw reader.fail("unknown replica operation code \(code)", at: start)
    }
  }

  /// A section anchor: 0 for none, else 1 and the identifier.
  @inlinable
  mutating func writeSectionAnchor(_ after: Section.ID?, into writer: inout _ByteWriter) throws(HistoryCodecError) {
    guard let after else { return writer.byte(0) }
    writer.byte(1)
    try writeSectionID(after, into: &writer)
  }

  @inlinable
  mutating func readSectionAnchor(_ reader: inout _ByteReader) throws(HistoryCodecError) -> Section.ID? {
    let start = reader.offset
    switch try reader.byte() {
    case 0: return nil
    case 1: return try readPlainSectionID(&reader)
    case let other: throw reader.fail("section anchor tag \(other)", at: start)
    }
  }

  /// An item anchor: the container as a location writes it, then the sibling (a reference with
  /// its one flag set, so never 0) or 0 for "first".
  @inlinable
  mutating func writeAnchor(_ anchor: ReplicaAnchor<Section.ID, Item.ID>, into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    switch anchor.container {
    case .section(let id): try writeSectionID(id, flagBits: 1, flags: 0, into: &writer)
    case .parent(let id): try writeItemID(id, flagBits: 1, flags: 1, into: &writer)
    }
    guard let after = anchor.after else { return writer.byte(0) }
    try writeItemID(after, flagBits: 1, flags: 1, into: &writer)
  }

  @inlinable
  mutating func readAnchor(_ reader: inout _ByteReader) throws(HistoryCodecError) -> ReplicaAnchor<Section.ID, Item.ID> {
    let container = try readContainer(&reader)
    let afterStart = reader.offset
    let afterHeader = try reader.varint()
    guard afterHeader != 0 else { return ReplicaAnchor(container, after: nil) }
    guard afterHeader & 2 != 0 else { throw reader.fail("anchor sibling reference without its flag", at: afterStart) }
    return ReplicaAnchor(container, after: try readItemID(header: afterHeader, flagBits: 1, start: afterStart, &reader))
  }
}
