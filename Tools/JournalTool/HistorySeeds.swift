import Foundation
import ListJournal

/// Writes fuzz seeds for the history decoder from the golden journals.
func writeHistorySeeds(goldenDirectory: String, output: String) {
  do {
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    let names = try FileManager.default.contentsOfDirectory(atPath: goldenDirectory).filter { $0.hasSuffix(".journal") }.sorted()
    var written = 0
    for name in names {
      let records = try JournalReader.open(at: goldenDirectory + "/" + name).readAll()
      let base = String(name.dropLast(".journal".count))
      // 0: the first few record payloads, each on its own (the first decodes with empty tables).
      for (index, record) in records.prefix(3).enumerated() {
        try Data([0] + record.payload).write(to: URL(fileURLWithPath: "\(output)/\(base)-record\(index)"))
        written += 1
      }
      // 1: the events of the first commits as a bare event stream.
      var codec = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
      var events: [ListEvent<JournalValueElement, JournalValueElement>] = []
      for record in records {
        guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else { continue }
        if case .commit(let commit) = try codec.decode(
          HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload))
        {
          events += commit.events
        }
      }
      var encoder = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
      try Data([1] + encoder.encode(events: events.prefix(40))).write(to: URL(fileURLWithPath: "\(output)/\(base)-events"))
      // 2: the whole record sequence, packed [kind, version, length(2), payload].
      var packed: [UInt8] = [2]
      for record in records.prefix(64) where record.payload.count < 65_536 {
        packed += [record.kind.rawValue &- 1, UInt8(truncatingIfNeeded: record.version)]
        packed += [UInt8(record.payload.count >> 8), UInt8(record.payload.count & 0xFF)] + record.payload
      }
      try Data(packed).write(to: URL(fileURLWithPath: "\(output)/\(base)-replay"))
      written += 2
    }
    say("wrote \(written) seeds to \(output)")
  } catch {
    fail("\(error)")
  }
}
