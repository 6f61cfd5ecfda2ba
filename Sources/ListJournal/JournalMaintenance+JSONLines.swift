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
    let reader: JournalReader
    do { reader = try JournalReader.open(at: path) } catch { throw .journal(error) }
    var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var output = ""
    var count = 0
    var read = 0
    let total = Int(reader.recordCount)
    progress?(0, total)
    var iterator = reader.makeIterator()
    do {
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
        output += jsonLine(sequence: record.sequence, version: record.version, content: content, payload: record.payload)
        output += "\n"
        count += 1
      }
    }
    guard FileManager.default.createFile(atPath: outputPath, contents: Data(output.utf8)) else {
      throw .unsupported("cannot write \(outputPath)")
    }
    progress?(total, total)
    return count
  }

  /// Creates a new journal at `outputPath` from a JSON Lines export (see the shape above), then
  /// verifies it by replaying it. Fails if `outputPath` exists.
  ///
  /// - Throws: `.unsupported` naming the line of a malformed input line; `.invalidRecord` when
  ///   the imported records do not replay (the half-written output is removed).
  /// - Returns: the number of records imported.
  @inlinable
  @discardableResult
  public static func importJSONLines(
    from inputPath: String, toJournalAt outputPath: String, options: JournalOptions = JournalOptions()
  ) throws(JournalStoreError) -> Int {
    try importJSONLines(from: inputPath, toJournalAt: outputPath, options: options, progress: nil)
  }

  /// ``importJSONLines(from:toJournalAt:options:)``, telling `progress` as it goes: (lines
  /// read, 2 × lines) while it writes the records, then (lines + records replayed, 2 × lines)
  /// while it replays them: for a tool's progress bar.
  @inlinable
  @discardableResult
  package static func importJSONLines(
    from inputPath: String, toJournalAt outputPath: String, options: JournalOptions = JournalOptions(),
    progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(JournalStoreError) -> Int {
    guard let data = FileManager.default.contents(atPath: inputPath), let text = String(data: data, encoding: .utf8) else {
      throw .unsupported("cannot read \(inputPath)")
    }
    var options = options
    options.durability = .grouped(maxDelayMilliseconds: 3_600_000, maxBytes: 1 << 20)
    options.onDurable = nil
    let writer: JournalWriter
    do { writer = try JournalWriter.create(at: outputPath, options: options) } catch { throw .journal(error) }
    var count = 0
    do throws(JournalStoreError) {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      let total = 2 * lines.count
      progress?(0, total)
      for (index, line) in lines.enumerated() {
        if index & 1023 == 1023 { progress?(index + 1, total) }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { continue }
        let lineNumber = index + 1
        guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any] else {
          throw .unsupported("\(inputPath):\(lineNumber): not a JSON object")
        }
        guard let kindName = object["kind"] as? String,
          let kind = ["commit": HistoryRecord.Kind.commit, "headMove": .headMove, "checkpoint": .checkpoint][kindName]
        else { throw .unsupported("\(inputPath):\(lineNumber): missing or unknown \"kind\"") }
        guard let version = (object["version"] as? NSNumber)?.int64Value, version >= 0 else {
          throw .unsupported("\(inputPath):\(lineNumber): missing or negative \"version\"")
        }
        guard let encoded = object["payload"] as? String, let payload = Data(base64Encoded: encoded) else {
          throw .unsupported("\(inputPath):\(lineNumber): missing or invalid base64 \"payload\"")
        }
        let record = JournalRecord(kind: JournalRecord.Kind(rawValue: kind.rawValue), version: UInt64(version), payload: Array(payload))
        do {
          if kind == .checkpoint { try writer.appendCheckpoint(version: record.version, payload: record.payload) } else {
            try writer.append(record)
          }
        } catch {
          if case .versionOutOfOrder = error { throw .unsupported("\(inputPath):\(lineNumber): \(error)") }
          throw .journal(error)
        }
        count += 1
      }
      do { try writer.close() } catch { throw .journal(error) }
      let history = try JournalHistory<JournalValueElement, JournalValueElement>.open(
        at: outputPath, codec: .generic(), progress: progress.map { report in { done, _ in report(lines.count + done, total) } })
      // Replayed anyway: the new journal's readers need not replay it again (best effort).
      if options.writesReadIndex { try? history.writeReadIndex(codec: .generic(), fileSystem: options.fileSystem) }
    } catch {
      try? writer.close()
      try? FileManager.default.removeItem(atPath: outputPath)
      throw error
    }
    return count
  }

  @inlinable
  static func nextRecord(_ iterator: inout JournalRecordIterator) throws(JournalStoreError) -> JournalRecord? {
    do { return try iterator.next() } catch { throw .journal(error) }
  }

  @inlinable
  static func jsonLine(
    sequence: UInt64, version: UInt64, content: HistoryRecordContent<JournalValueElement, JournalValueElement>,
    payload: [UInt8]
  ) -> String {
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
    }
    members.append(.init("payload", .string(Data(payload).base64EncodedString())))
    return JournalValue.object(members).jsonText
  }
}
