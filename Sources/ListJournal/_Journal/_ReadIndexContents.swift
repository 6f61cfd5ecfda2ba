/// The sections of a read index (Journal/FORMAT.md §11), by kind.
@usableFromInline
enum _ReadIndexSection {
  /// Counts and the head (stored, a few varints).
  @usableFromInline static let counters: UInt32 = 1
  /// Every version's parent, time, label and event count (columns, zstd).
  @usableFromInline static let versions: UInt32 = 2
  /// The commit records of the indexed versions (zstd).
  @usableFromInline static let recent: UInt32 = 3
  /// A checkpoint record of the head's state (zstd).
  @usableFromInline static let head: UInt32 = 4
  /// Where the journal's record stream stands after its last record (the codec's tables, the
  /// record sequence, the checkpoint rule, the head's redo child; zstd): what a store needs to
  /// open from the head and append without replaying.
  @usableFromInline static let position: UInt32 = 5
  /// The redo children of version 0 and of indexed versions (varints, zstd): where redo goes
  /// from the versions a store opened from its head undoes to without replaying.
  @usableFromInline static let redoChildren: UInt32 = 6
}

/// A bounds-checked reader of an index section's varints, failing with the section's offset.
@usableFromInline
struct _ReadIndexCursor {
  @usableFromInline let bytes: [UInt8]
  @usableFromInline var offset = 0
  @usableFromInline let section: UInt32
  @usableFromInline let path: String

  @usableFromInline
  init(_ bytes: [UInt8], section: UInt32, path: String) {
    self.bytes = bytes
    self.section = section
    self.path = path
  }

  @usableFromInline var isAtEnd: Bool { offset == bytes.count }

  @usableFromInline
  func fail(_ reason: String) -> JournalReadIndexProblem {
    // The offset within the decompressed section: the file offset means nothing after zstd.
    .damaged(path: path, offset: Int64(offset), reason: "section \(section), byte \(offset): \(reason)")
  }

  @usableFromInline
  mutating func varint() throws(JournalReadIndexProblem) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      let byte = bytes[offset]
      offset += 1
      if shift == 63 && byte > 1 { throw fail("varint overflows 64 bits") }
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
      if shift > 63 { break }
    }
    throw fail("truncated varint")
  }

  /// A varint that must be at most `maximum`.
  @usableFromInline
  mutating func int(max maximum: Int, _ what: String) throws(JournalReadIndexProblem) -> Int {
    let value = try varint()
    guard value <= UInt64(maximum) else { throw fail("\(what) \(value) over \(maximum)") }
    return Int(value)
  }

  @usableFromInline
  mutating func zigzag() throws(JournalReadIndexProblem) -> Int64 {
    let value = try varint()
    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  @usableFromInline
  mutating func bytes(_ count: Int) throws(JournalReadIndexProblem) -> ArraySlice<UInt8> {
    guard count <= bytes.count - offset else { throw fail("\(count) bytes past the end") }
    defer { offset += count }
    return bytes[offset..<(offset + count)]
  }

  @usableFromInline
  mutating func string() throws(JournalReadIndexProblem) -> String {
    let count = try int(max: bytes.count - offset, "string length")
    let start = offset
    let slice = try bytes(count)
    guard let text = String(validating: slice, as: UTF8.self) else {
      offset = start
      throw fail("label is not UTF-8")
    }
    return text
  }
}

extension Array where Element == UInt8 {
  @usableFromInline
  mutating func _appendIndexVarint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    append(UInt8(v))
  }

  @usableFromInline
  mutating func _appendIndexZigzag(_ value: Int64) {
    _appendIndexVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }
}

/// The counters section: what `info` prints, without decoding any state.
@usableFromInline
struct _ReadIndexCounters: Sendable, Equatable {
  @usableFromInline var versionCount: Int
  @usableFromInline var head: Int
  @usableFromInline var eventCount: Int
  @usableFromInline var commitCount: Int
  @usableFromInline var headMoveCount: Int
  /// The history codec's encoding (format minor) of the recent and head sections.
  @usableFromInline var codecMinor: Int

  @usableFromInline
  init(versionCount: Int, head: Int, eventCount: Int, commitCount: Int, headMoveCount: Int, codecMinor: Int) {
    self.versionCount = versionCount
    self.head = head
    self.eventCount = eventCount
    self.commitCount = commitCount
    self.headMoveCount = headMoveCount
    self.codecMinor = codecMinor
  }

  @usableFromInline
  func encoded() -> [UInt8] {
    var bytes: [UInt8] = []
    for value in [versionCount, head, eventCount, commitCount, headMoveCount, codecMinor] {
      bytes._appendIndexVarint(UInt64(value))
    }
    return bytes
  }

  /// Later index minors may append fields: bytes after the known ones are ignored.
  @usableFromInline
  static func decode(_ bytes: [UInt8], path: String) throws(JournalReadIndexProblem) -> _ReadIndexCounters {
    var cursor = _ReadIndexCursor(bytes, section: _ReadIndexSection.counters, path: path)
    let versionCount = try cursor.int(max: Int(Int32.max), "version count")
    guard versionCount >= 1 else { throw cursor.fail("no version") }
    let head = try cursor.int(max: versionCount - 1, "head")
    let eventCount = try cursor.int(max: Int.max, "event count")
    let commitCount = try cursor.int(max: versionCount - 1, "commit count")
    let headMoveCount = try cursor.int(max: Int.max, "head-move count")
    let codecMinor = try cursor.int(max: Int(UInt16.max), "codec minor")
    return _ReadIndexCounters(
      versionCount: versionCount, head: head, eventCount: eventCount, commitCount: commitCount,
      headMoveCount: headMoveCount, codecMinor: codecMinor)
  }
}

/// The version table: parent, time, label and event count of every version, in columns (each
/// compresses well alone: parents are mostly "the previous version", times mostly repeat).
@usableFromInline
struct _ReadIndexVersionTable: Sendable {
  /// -1 for version 0.
  @usableFromInline var parents: [Int32] = []
  @usableFromInline var millis: [Int64] = []
  /// Index in `labels`, -1 without a label.
  @usableFromInline var labelIndexes: [Int32] = []
  @usableFromInline var eventCounts: [Int32] = []
  @usableFromInline var labels: [String] = []

  @usableFromInline
  init() {}

  @usableFromInline var count: Int { parents.count }

  @usableFromInline
  func info(of version: Int) -> VersionInfo {
    let parent = parents[version]
    let label = labelIndexes[version]
    return VersionInfo(
      version: Version(version), parent: parent < 0 ? nil : Version(Int(parent)), timestamp: Double(millis[version]) / 1000,
      label: label < 0 ? nil : labels[Int(label)], operationCount: Int(eventCounts[version]))
  }

  /// A timestamp in milliseconds, rounded as the history codec stores it.
  @usableFromInline
  static func millis(_ seconds: Double) -> Int64 {
    let scaled = (seconds * 1000).rounded()
    return scaled.isFinite ? Int64(clamping: Int64(exactly: scaled) ?? (scaled > 0 ? .max : .min)) : 0
  }

  /// Appends a version (versions in order from 0).
  @usableFromInline
  mutating func append(parent: Int?, millis: Int64, label: Int32, eventCount: Int) {
    parents.append(Int32(parent ?? -1))
    self.millis.append(millis)
    labelIndexes.append(label)
    eventCounts.append(Int32(clamping: eventCount))
  }

  /// `labelCount labels… | parents | times | labels | events`, each column prefixed by its
  /// length: parents as `v - 1 - parent` (from version 1), times as zigzag differences from the
  /// previous version's, labels as `index + 1` (0: none), event counts as they are.
  @usableFromInline
  func encoded() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes._appendIndexVarint(UInt64(labels.count))
    for label in labels {
      let utf8 = Array(label.utf8)
      bytes._appendIndexVarint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
    var column: [UInt8] = []
    column.reserveCapacity(count)
    func flush() {
      bytes._appendIndexVarint(UInt64(column.count))
      bytes.append(contentsOf: column)
      column.removeAll(keepingCapacity: true)
    }
    for version in parents.indices.dropFirst() { column._appendIndexVarint(UInt64(version - 1 - Int(parents[version]))) }
    flush()
    var previous: Int64 = 0
    for value in millis {
      column._appendIndexZigzag(value &- previous)
      previous = value
    }
    flush()
    for index in labelIndexes { column._appendIndexVarint(UInt64(Int(index) + 1)) }
    flush()
    for events in eventCounts { column._appendIndexVarint(UInt64(events)) }
    flush()
    return bytes
  }

  @usableFromInline
  static func decode(_ bytes: [UInt8], count: Int, path: String) throws(JournalReadIndexProblem) -> _ReadIndexVersionTable {
    var cursor = _ReadIndexCursor(bytes, section: _ReadIndexSection.versions, path: path)
    var table = _ReadIndexVersionTable()
    let labelCount = try cursor.int(max: bytes.count, "label count")
    table.labels.reserveCapacity(labelCount)
    for _ in 0..<labelCount { table.labels.append(try cursor.string()) }
    func column(_ what: String) throws(JournalReadIndexProblem) -> Int {
      let length = try cursor.int(max: bytes.count - cursor.offset, "\(what) column length")
      return cursor.offset + length
    }
    table.parents.reserveCapacity(count)
    table.parents.append(-1)
    var end = try column("parent")
    for version in 1..<max(1, count) {
      let distance = try cursor.int(max: version - 1, "parent distance of version \(version)")
      table.parents.append(Int32(version - 1 - distance))
    }
    guard cursor.offset == end else { throw cursor.fail("parent column ends at \(cursor.offset), not \(end)") }
    end = try column("time")
    table.millis.reserveCapacity(count)
    var previous: Int64 = 0
    for _ in 0..<count {
      previous = previous &+ (try cursor.zigzag())
      table.millis.append(previous)
    }
    guard cursor.offset == end else { throw cursor.fail("time column ends at \(cursor.offset), not \(end)") }
    end = try column("label")
    table.labelIndexes.reserveCapacity(count)
    for _ in 0..<count { table.labelIndexes.append(Int32(try cursor.int(max: labelCount, "label index")) - 1) }
    guard cursor.offset == end else { throw cursor.fail("label column ends at \(cursor.offset), not \(end)") }
    end = try column("event count")
    table.eventCounts.reserveCapacity(count)
    for _ in 0..<count { table.eventCounts.append(Int32(try cursor.int(max: Int(Int32.max), "event count"))) }
    guard cursor.offset == end, cursor.isAtEnd else { throw cursor.fail("event column ends at \(cursor.offset), not \(end)") }
    return table
  }
}

/// A version table extended by the versions after those it was encoded with, without decoding
/// it: the encoded columns are copied and the new versions' values appended, which gives the
/// bytes ``_ReadIndexVersionTable/encoded()`` gives for the whole table. Closing a journal
/// opened from its index so costs a copy of the table, not a pass over every version.
@usableFromInline
struct _ReadIndexVersionTableAppender {
  @usableFromInline var labels: [String] = []
  @usableFromInline var labelIndexes: [String: Int32] = [:]
  /// Parents, times, labels, event counts: each column's bytes.
  @usableFromInline var columns: [[UInt8]] = []
  @usableFromInline var count: Int
  @usableFromInline var lastMillis: Int64

  /// - Parameters: `bytes`, a table of `count` versions whose last time is `lastMillis`.
  @usableFromInline
  init(encoded bytes: [UInt8], count: Int, lastMillis: Int64, path: String) throws(JournalReadIndexProblem) {
    var cursor = _ReadIndexCursor(bytes, section: _ReadIndexSection.versions, path: path)
    let labelCount = try cursor.int(max: bytes.count, "label count")
    for index in 0..<labelCount {
      let label = try cursor.string()
      labels.append(label)
      labelIndexes[label] = labelIndexes[label] ?? Int32(index)
    }
    for what in ["parent", "time", "label", "event count"] {
      let length = try cursor.int(max: bytes.count - cursor.offset, "\(what) column length")
      columns.append(Array(try cursor.bytes(length)))
    }
    guard cursor.isAtEnd else { throw cursor.fail("\(bytes.count - cursor.offset) bytes after the event column") }
    self.count = count
    self.lastMillis = lastMillis
  }

  /// Appends the next version.
  @usableFromInline
  mutating func append(parent: Int?, millis: Int64, label: String?, eventCount: Int) {
    let version = count
    if version > 0 { columns[0]._appendIndexVarint(UInt64(version - 1 - (parent ?? -1))) }
    columns[1]._appendIndexZigzag(millis &- lastMillis)
    lastMillis = millis
    var index: Int32 = -1
    if let label {
      if let known = labelIndexes[label] {
        index = known
      } else {
        index = Int32(labels.count)
        labelIndexes[label] = index
        labels.append(label)
      }
    }
    columns[2]._appendIndexVarint(UInt64(Int(index) + 1))
    columns[3]._appendIndexVarint(UInt64(Int32(clamping: eventCount)))
    count += 1
  }

  @usableFromInline
  func encoded() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(columns.reduce(64) { $0 + $1.count + 10 })
    bytes._appendIndexVarint(UInt64(labels.count))
    for label in labels {
      let utf8 = Array(label.utf8)
      bytes._appendIndexVarint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
    for column in columns {
      bytes._appendIndexVarint(UInt64(column.count))
      bytes.append(contentsOf: column)
    }
    return bytes
  }
}

/// The recent section's framing: `count | (versionDelta payloadLength payload)…`, versions
/// ascending (the first delta from 0).
@usableFromInline
enum _ReadIndexRecords {
  @usableFromInline
  static func encode(_ records: [(version: Int, payload: [UInt8])]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes._appendIndexVarint(UInt64(records.count))
    var previous = 0
    for record in records {
      bytes._appendIndexVarint(UInt64(record.version - previous))
      previous = record.version
      bytes._appendIndexVarint(UInt64(record.payload.count))
      bytes.append(contentsOf: record.payload)
    }
    return bytes
  }

  @usableFromInline
  static func decode(_ bytes: [UInt8], latestVersion: Int, path: String) throws(JournalReadIndexProblem)
    -> [(version: Int, payload: [UInt8])]
  {
    var cursor = _ReadIndexCursor(bytes, section: _ReadIndexSection.recent, path: path)
    let count = try cursor.int(max: latestVersion, "record count")
    var records: [(version: Int, payload: [UInt8])] = []
    records.reserveCapacity(count)
    var version = 0
    for _ in 0..<count {
      let delta = try cursor.int(max: latestVersion - version, "version delta")
      guard delta > 0 else { throw cursor.fail("versions not ascending after \(version)") }
      version += delta
      let length = try cursor.int(max: bytes.count - cursor.offset, "payload length")
      records.append((version, Array(try cursor.bytes(length))))
    }
    guard cursor.isAtEnd else { throw cursor.fail("\(bytes.count - cursor.offset) bytes after the last record") }
    return records
  }
}

/// The redo children section: `count | (versionDelta redoChildPlusOne)…`, versions ascending
/// (the first delta from 0, which may be 0 for version 0 itself), `redoChildPlusOne` 0 for a
/// version without a redo child, else the child (always a newer version) plus one. A version
/// not listed has a redo child the writer did not know.
@usableFromInline
enum _ReadIndexRedoChildren {
  @usableFromInline
  static func encode(_ children: [(version: Int, redoChild: Int?)]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes._appendIndexVarint(UInt64(children.count))
    var previous = 0
    for entry in children {
      bytes._appendIndexVarint(UInt64(entry.version - previous))
      previous = entry.version
      bytes._appendIndexVarint(entry.redoChild.map { UInt64($0 + 1) } ?? 0)
    }
    return bytes
  }

  @usableFromInline
  static func decode(_ bytes: [UInt8], latestVersion: Int, path: String) throws(JournalReadIndexProblem) -> [Int: Int?] {
    var cursor = _ReadIndexCursor(bytes, section: _ReadIndexSection.redoChildren, path: path)
    let count = try cursor.int(max: latestVersion + 1, "redo child count")
    var children: [Int: Int?] = [:]
    children.reserveCapacity(count)
    var version = 0
    for index in 0..<count {
      let delta = try cursor.int(max: latestVersion - version, "version delta")
      guard delta > 0 || index == 0 else { throw cursor.fail("versions not ascending after \(version)") }
      version += delta
      let child = try cursor.int(max: latestVersion + 1, "redo child")
      guard child == 0 || child - 1 > version else {
        throw cursor.fail("v\(child - 1) is not newer than v\(version), so not its child")
      }
      children[version] = child == 0 ? .some(nil) : .some(child - 1)
    }
    guard cursor.isAtEnd else { throw cursor.fail("\(bytes.count - cursor.offset) bytes after the last redo child") }
    return children
  }
}
