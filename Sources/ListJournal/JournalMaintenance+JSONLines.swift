import Foundation

/// JSON Lines export and import.
///
/// **Shape** (one JSON object per line, one line per record, in journal order; keys in this order):
/// ```
/// {"sequence":1,"kind":"commit","version":1,"parent":0,"time":1700000000.001,"label":"Add Fruit","events":[EVENT...],"payload":"BASE64"}
/// {"sequence":2,"kind":"headMove","version":1,"move":"undo","from":1,"to":0,"time":1700000000.002,"payload":"BASE64"}
/// {"sequence":3,"kind":"checkpoint","version":1,"head":0,"payload":"BASE64"}
/// ```
/// `label` is omitted when there is none. `EVENT` is `{"op": NAME, ...}` with the event's fields
/// as generic values (identifiers and contents as the app encoded them): `insertSection` /
/// `deleteSection` (`section`, `index`, `items`), `moveSection` (`id`, `from`, `to`),
/// `updateSection` / `replaceSection` (`old`, `new`), `reloadSections` (`ids`), `insertItems` /
/// `deleteItems` (`location`, `items`), `moveItem` (`id`, `from`, `to`), `updateItem` /
/// `replaceItem` (`old`, `new`), `expand` / `collapse` (`id`, `wasExpanded`), `reloadItems` /
/// `reconfigureItems` (`ids`). An element is `{"id": ID, "content": CONTENT}`, an outline node
/// `{"item": ELEMENT, "expanded": BOOL, "children": [NODE...]}`, a location
/// `{"section": ID}` or `{"parent": ID}` plus `"index"`.
///
/// The decoded fields are for reading; `payload` (the record's exact bytes, base64) is what
/// import uses, so an export imports back to an equivalent journal (same records, same history).
extension JournalMaintenance {
  /// Writes every record of the journal at `path` as one JSON line to `outputPath`.
  ///
  /// - Returns: the number of records written.
  /// - Complexity: O(journal size); the lines are written as they are made, in blocks.
  @inlinable
  @discardableResult
  public static func export(at path: String, toJSONLines outputPath: String) throws(JournalStoreError) -> Int {
    try export(at: path, toJSONLines: outputPath, progress: nil)
  }

  /// ``export(at:toJSONLines:)``, telling `progress` (records written, records in the journal)
  /// every 1,024 records and at the end: for a tool's progress bar.
  @inlinable
  @discardableResult
  package static func export(
    at path: String, toJSONLines outputPath: String, progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(JournalStoreError) -> Int {
    guard FileManager.default.createFile(atPath: outputPath, contents: nil),
      let file = FileHandle(forWritingAtPath: outputPath)
    else { throw .unsupported("cannot write \(outputPath)") }
    defer { try? file.close() }
    do throws(JournalStoreError) {
      return try export(at: path, progress: progress) { block throws(JournalStoreError) in
        do { try file.write(contentsOf: block) } catch { throw .unsupported("cannot write \(outputPath): \(error)") }
      }
    } catch {
      try? FileManager.default.removeItem(atPath: outputPath)  // no partial export left behind
      throw error
    }
  }

  /// ``export(at:toJSONLines:)``, handing the JSON Lines text to `write` in blocks of whole
  /// lines (for a tool that streams them to its output), and telling `progress` as above.
  @inlinable
  @discardableResult
  package static func export(
    at path: String, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
    writing write: ([UInt8]) throws(JournalStoreError) -> Void
  ) throws(JournalStoreError) -> Int {
    let reader: JournalReader
    do { reader = try JournalReader.open(at: path) } catch { throw .journal(error) }
    return try export([(reader, 0)], progress: progress, writing: write)
  }

  /// ``export(at:progress:writing:)`` for a journal damaged in its middle: the records of the
  /// valid prefix, then those after each damaged stretch from the first frame that starts with
  /// a checkpoint (the earlier ones cannot be decoded: see
  /// `JournalReader.openSegments(at:limits:fileSystem:)`). Their sequences show the gaps.
  @inlinable
  @discardableResult
  package static func export(
    salvaging path: String, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
    writing write: ([UInt8]) throws(JournalStoreError) -> Void
  ) throws(JournalStoreError) -> Int {
    let segments: JournalSegments
    do { segments = try JournalReader.openSegments(at: path) } catch { throw .journal(error) }
    var parts: [(JournalReader, Int)] = [(segments.readers[0], 0)]
    for reader in segments.readers.dropFirst() {
      if let start = reader.frames.firstIndex(where: \.startsWithCheckpoint) { parts.append((reader, start)) }
    }
    return try export(parts, progress: progress, writing: write)
  }

  /// Writes the records of each reader from its frame on, as JSON lines.
  @inlinable
  static func export(
    _ parts: [(reader: JournalReader, fromFrame: Int)], progress: ((_ done: Int, _ total: Int) -> Void)?,
    writing write: ([UInt8]) throws(JournalStoreError) -> Void
  ) throws(JournalStoreError) -> Int {
    var block: [UInt8] = []
    block.reserveCapacity(Self.exportBlockBytes + 4096)
    var count = 0
    var read = 0
    let total = parts.reduce(0) { total, part in
      total + Int(part.reader.frames[part.fromFrame...].reduce(0) { $0 + $1.recordCount })
    }
    progress?(0, total)
    for (reader, fromFrame) in parts {
      // A fresh codec per part: each starts at the file's start or at a checkpoint.
      var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
      var iterator = reader.makeIterator(fromFrame: fromFrame)
      while let record = try nextRecord(&iterator) {
        read += 1
        if read & 1023 == 0 { progress?(read, total) }
        guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else { continue }
        let history = HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload)
        let content: HistoryRecordContent<JournalValueElement, JournalValueElement>
        do { content = try codec.decode(history) } catch {
          throw .invalidRecord(
            offset: _JournalReplay.offset(ofSequence: record.sequence, in: reader), sequence: record.sequence,
            version: record.version, reason: error.description)
        }
        writeJSONLine(sequence: record.sequence, version: record.version, content: content, payload: record.payload, into: &block)
        block.append(0x0A)
        count += 1
        if block.count >= Self.exportBlockBytes {
          try write(block)
          block.removeAll(keepingCapacity: true)
        }
      }
    }
    if !block.isEmpty { try write(block) }
    progress?(total, total)
    return count
  }

  /// How much of an export is handed on at a time.
  @inlinable
  static var exportBlockBytes: Int { 1 << 20 }

  /// Creates a new journal at `outputPath` from a JSON Lines export (see the shape above), then
  /// verifies it by replaying it. Fails if `outputPath` exists.
  ///
  /// - Throws: `.unsupported` naming the line of a malformed input line; `.invalidRecord` when
  ///   the imported records do not replay (the half-written output is removed).
  /// - Returns: the number of records imported.
  /// - Complexity: O(input size) to read the lines (only `kind`, `version` and `payload` are
  ///   decoded; the rest of each line is checked, not built), plus one replay of the result.
  @inlinable
  @discardableResult
  public static func importJSONLines(
    from inputPath: String, toJournalAt outputPath: String, options: JournalOptions = JournalOptions()
  ) throws(JournalStoreError) -> Int {
    var recordLines: [Int] = []
    return try importJSONLines(
      from: inputPath, toJournalAt: outputPath, options: options, recordLines: &recordLines, progress: nil)
  }

  /// ``importJSONLines(from:toJournalAt:options:)``, also listing the input line of each
  /// record (record *n* is `recordLines[n - 1]`; blank lines hold none), filled in before the
  /// replay so a caller can name the line of a record that does not replay, and telling
  /// `progress` as it goes: (bytes read, 2 × bytes) while it writes the records, then (bytes +
  /// the replay's share, 2 × bytes) while it replays them: for a tool's progress bar.
  @inlinable
  @discardableResult
  package static func importJSONLines(
    from inputPath: String, toJournalAt outputPath: String, options: JournalOptions = JournalOptions(),
    recordLines: inout [Int], progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(JournalStoreError) -> Int {
    guard let data = FileManager.default.contents(atPath: inputPath) else {
      throw .unsupported("cannot read \(inputPath)")
    }
    var options = options
    options.durability = .grouped(maxDelayMilliseconds: 3_600_000, maxBytes: 1 << 20)
    options.onDurable = nil
    let writer: JournalWriter
    do { writer = try JournalWriter.create(at: outputPath, options: options) } catch { throw .journal(error) }
    recordLines = []
    do throws(JournalStoreError) {
      var failure: JournalStoreError?
      data.withUnsafeBytes { raw in
        do throws(JournalStoreError) {
          try appendRecords(
            lines: raw.bindMemory(to: UInt8.self), of: inputPath, to: writer, recordLines: &recordLines,
            progress: progress.map { report in { done, _ in report(done, 2 * data.count) } })
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      do { try writer.close() } catch { throw .journal(error) }
      // That it replays is what matters (no in-memory checkpoints to build); the replayed
      // history then writes the read index, and is freed off the caller's path.
      let replayed = try JournalHistory<JournalValueElement, JournalValueElement>.open(
        at: outputPath, codec: .generic(), checkpointInterval: 1 << 40,
        progress: progress.map { report in
          { done, total in report(data.count + (total == 0 ? data.count : data.count * done / total), 2 * data.count) }
        })
      // Best effort: readers replay a journal without one.
      if options.writesReadIndex { try? replayed.writeReadIndex(codec: .generic(), fileSystem: options.fileSystem) }
      _releaseInBackground(replayed)
    } catch {
      try? writer.close()
      try? FileManager.default.removeItem(atPath: outputPath)
      throw error
    }
    return recordLines.count
  }

  /// Appends the record of each non-blank line of `bytes` to `writer`, noting its line number.
  @inlinable
  static func appendRecords(
    lines bytes: UnsafeBufferPointer<UInt8>, of inputPath: String, to writer: JournalWriter, recordLines: inout [Int],
    progress: ((_ bytesRead: Int, _ total: Int) -> Void)?
  ) throws(JournalStoreError) {
    let scanner = _ExportLineScanner()
    var lineStart = 0
    var lineNumber = 0
    while lineStart < bytes.count {
      let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
      lineNumber += 1
      defer { lineStart = lineEnd + 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let fields: _ExportLineScanner.Fields
      do { fields = try scanner.scan(line) } catch {
        throw .unsupported("\(inputPath):\(lineNumber): not a JSON object")
      }
      let kind: HistoryRecord.Kind
      switch fields.kind {
      case "commit": kind = .commit
      case "headMove": kind = .headMove
      case "checkpoint": kind = .checkpoint
      case "gap": kind = .gap
      default: throw .unsupported("\(inputPath):\(lineNumber): missing or unknown \"kind\"")
      }
      guard let version = fields.version, version >= 0 else {
        throw .unsupported("\(inputPath):\(lineNumber): missing or negative \"version\"")
      }
      guard let payload = fields.payload else {
        throw .unsupported("\(inputPath):\(lineNumber): missing or invalid base64 \"payload\"")
      }
      let record = JournalRecord(kind: JournalRecord.Kind(rawValue: kind.rawValue), version: UInt64(version), payload: payload)
      do throws(JournalError) {
        if kind == .checkpoint { try writer.appendCheckpoint(version: record.version, payload: record.payload) } else {
          try writer.append(record)
        }
      } catch {
        if case .versionOutOfOrder = error { throw .unsupported("\(inputPath):\(lineNumber): \(error)") }
        throw .journal(error)
      }
      recordLines.append(lineNumber)
      if recordLines.count & 1023 == 0 { progress?(lineEnd, bytes.count) }
    }
  }

  @inlinable
  static func nextRecord(_ iterator: inout JournalRecordIterator) throws(JournalStoreError) -> JournalRecord? {
    do { return try iterator.next() } catch { throw .journal(error) }
  }

  /// One record's JSON line, without its line break.
  @inlinable
  static func writeJSONLine(
    sequence: UInt64, version: UInt64, content: HistoryRecordContent<JournalValueElement, JournalValueElement>,
    payload: [UInt8], into out: inout [UInt8]
  ) {
    var members: [JournalValue.Member] = [.init("sequence", .int(Int64(sequence)))]
    switch content {
    case .commit(let commit):
      members.append(.init("kind", .string("commit")))
      members.append(.init("version", .int(Int64(version))))
      members.append(.init("parent", .int(Int64(commit.parent.rawValue))))
      members.append(.init("time", .double(commit.timestamp)))
      if let label = commit.label { members.append(.init("label", .string(label))) }
      members.append(.init("events", .array(commit.events.map(_EventJSON.value(of:)))))
    case .headMove(let move):
      members.append(.init("kind", .string("headMove")))
      members.append(.init("version", .int(Int64(version))))
      members.append(.init("move", .string(move.kind.description)))
      members.append(.init("from", .int(Int64(move.from.rawValue))))
      members.append(.init("to", .int(Int64(move.to.rawValue))))
      members.append(.init("time", .double(move.timestamp)))
    case .checkpoint(let checkpoint):
      members.append(.init("kind", .string("checkpoint")))
      members.append(.init("version", .int(Int64(version))))
      members.append(.init("head", .int(Int64(checkpoint.head.rawValue))))
    case .gap(let gap):
      members.append(.init("kind", .string("gap")))
      members.append(.init("version", .int(Int64(version))))
      members.append(.init("lost", .int(Int64(gap.lostCount))))
    }
    // The members, then the payload written straight from its bytes (the last member).
    JournalValue.object(members).writeJSON(into: &out)
    out.removeLast()
    out.append(contentsOf: #","payload":""#.utf8)
    _Base64.encode(payload, into: &out)
    out.append(contentsOf: #""}"#.utf8)
  }
}
