import ListHistory
import ListState
import Testing

@Suite struct HistoryCodecTests {
  typealias Event = ListEvent<String, TestRow>

  static let location = ListItemLocation<String, Int>(.section("S"), index: 3)

  static let sampleEvents: [Event] = [
    .insertSection("S", items: ListOutline(), at: 0),
    .insertSection("T", items: ListOutline([.init(TestRow(1, "a"), isExpanded: true, children: [.init(TestRow(2, "b"))])]), at: 1),
    .deleteSection("T", items: ListOutline([.init(TestRow(1, "a"))]), at: 1),
    .moveSection("S", from: 0, to: 4),
    .replaceSection(old: "S", new: "U"),
    .reloadSections(["S", "U"]),
    .insertItems(ListOutline(items: [TestRow(3, "c")]), at: location),
    .insertItems(ListOutline(items: [TestRow(4, "d"), TestRow(5, "é ✓")]), at: .init(.parent(3), index: 0)),
    .deleteItems(ListOutline([.init(TestRow(3, "c"), isExpanded: true)]), from: location),
    .moveItem(4, from: .init(.parent(3), index: 0), to: location),
    .updateItem(old: TestRow(4, "d"), new: TestRow(4, "D")),
    .replaceItem(old: TestRow(4, "D"), new: TestRow(40, "forty")),
    .expand(40, wasExpanded: false), .expand(40, wasExpanded: true),
    .collapse(40, wasExpanded: true), .collapse(40, wasExpanded: false),
    .reloadItems([40, 5]), .reconfigureItems([5]),
    .updateItem(old: TestRow(5, String(repeating: "long ", count: 100)), new: TestRow(5, "")),
  ]

  @Test func typedRoundTrip() throws {
    var writer = HistoryCodec<String, TestRow>()
    var reader = HistoryCodec<String, TestRow>()
    let commit = HistoryCommit(version: 7, parent: 3, timestamp: 1_700_000_000.123, label: "Edit", events: Self.sampleEvents)
    let record = try writer.encode(.commit(commit), sequence: 1)
    #expect(record.kind == .commit && record.version == 7)
    guard case .commit(let decoded) = try reader.decode(record) else {
      Issue.record("not a commit")
      return
    }
    #expect(decoded == commit)

    // Interning: the same events again cost far fewer bytes.
    let again = try writer.encode(.commit(HistoryCommit(version: 8, parent: 7, timestamp: 1_700_000_000.5, label: "Edit", events: Self.sampleEvents)), sequence: 2)
    #expect(again.payload.count < record.payload.count)
    // An event that only names known identifiers costs a few bytes.
    let moveBytes = try writer.encode(events: [Event.moveItem(4, from: .init(.parent(3), index: 0), to: Self.location)])
    #expect(moveBytes.count <= 6, "\(moveBytes)")
    guard case .commit(let second) = try reader.decode(again) else { return }
    #expect(second.events == Self.sampleEvents && second.label == "Edit" && second.timestamp == 1_700_000_000.5)

    let move = HistoryHeadMove(kind: .undo, from: 8, to: 7, latestVersion: 8, timestamp: 1_700_000_001)
    let moveRecord = try writer.encode(.headMove(move), sequence: 3)
    guard case .headMove(let decodedMove) = try reader.decode(moveRecord) else { return }
    #expect(decodedMove == move)
  }

  @Test func genericDecodingNeedsNoAppTypes() throws {
    var writer = HistoryCodec<String, TestRow>()
    var generic = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    var regeneric = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
    let commit = HistoryCommit(version: 1, parent: 0, timestamp: 0, label: nil, events: Self.sampleEvents)
    let record = try writer.encode(.commit(commit), sequence: 1)
    guard case .commit(let decoded) = try generic.decode(record) else { return }
    #expect(decoded.events.count == Self.sampleEvents.count)
    guard case .updateItem(let old, let new) = decoded.events[10] else {
      Issue.record("expected an update, got \(decoded.events[10])")
      return
    }
    #expect(old.id == .int(4))
    #expect(old.content == .object([.init("id", .int(4)), .init("title", .string("d"))]))
    #expect(new.content["title"] == .string("D"))
    guard case .moveSection(let section, 0, 4) = decoded.events[3] else { return }
    #expect(section == .string("S"))
    // Re-encoding the generic values gives the same bytes: nothing was lost.
    let reencoded = try regeneric.encode(.commit(decoded), sequence: 1)
    #expect(reencoded.payload == record.payload)
  }

  @Test func checkpointsResetTheTables() throws {
    var snapshot = ListSnapshot<String, TestRow>()
    try snapshot.appendSections(["A", "B"])
    try snapshot.append(ListOutline([.init(TestRow(1, "x"), isExpanded: true, children: [.init(TestRow(2, "y"))])]), toSection: "A")
    try snapshot.appendItems([TestRow(3, "z")], toSection: "B")
    var writer = HistoryCodec<String, TestRow>()
    _ = try writer.encode(.commit(HistoryCommit(version: 1, parent: 0, timestamp: 0, label: "warm", events: Self.sampleEvents)), sequence: 1)
    let record = try writer.encode(.checkpoint(HistoryCheckpoint(head: 1, latestVersion: 1, snapshot: snapshot)), sequence: 2)
    // A fresh reader (no earlier records) decodes the checkpoint and what follows.
    var reader = HistoryCodec<String, TestRow>()
    guard case .checkpoint(let checkpoint) = try reader.decode(record) else { return }
    #expect(Canonical(checkpoint.snapshot) == Canonical(snapshot))
    #expect(checkpoint.head == 1)
    let next = try writer.encode(.commit(HistoryCommit(version: 2, parent: 1, timestamp: 0, label: "warm", events: [.updateItem(old: TestRow(1, "x"), new: TestRow(1, "X"))])), sequence: 3)
    guard case .commit(let commit) = try reader.decode(next) else { return }
    #expect(commit.label == "warm" && commit.events == [.updateItem(old: TestRow(1, "x"), new: TestRow(1, "X"))])
  }

  @Test func compactEncodingOfFormat11() throws {
    // The same records with both encodings decode to the same contents; 1.1 is smaller.
    let commits = (0..<4).map { number in
      HistoryCommit(version: Version(number + 1), parent: Version(number), timestamp: 1_700_000_000, label: nil, events: Self.sampleEvents)
    }
    var sizes: [UInt16: Int] = [:]
    for minor in [0, 1] as [UInt16] {
      var writer = HistoryCodec<String, TestRow>()
      writer.encoderFormatMinor = minor
      var reader = HistoryCodec<String, TestRow>()
      var generic = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
      for (index, commit) in commits.enumerated() {
        let record = try writer.encode(.commit(commit), sequence: UInt64(index + 1))
        sizes[minor, default: 0] += record.payload.count
        guard case .commit(let decoded) = try reader.decode(record), case .commit(let values) = try generic.decode(record) else {
          Issue.record("not a commit")
          return
        }
        #expect(decoded == commit)
        #expect(values.events.count == commit.events.count)
      }
    }
    #expect(sizes[1]! < sizes[0]!, "\(sizes)")

    // A remembered update names only the item and its new content; a leaf delete of an item with
    // its remembered content names only the location and the item.
    var writer = HistoryCodec<String, TestRow>()
    _ = try writer.encode(events: [.insertItems(ListOutline(items: [TestRow(7, "seven")]), at: Self.location)])
    let update = try writer.encode(events: [.updateItem(old: TestRow(7, "seven"), new: TestRow(7, "7"))])
    #expect(update.first == 0x1D && update.count <= 7, "\(update)")
    let stale = try writer.encode(events: [.updateItem(old: TestRow(7, "seven"), new: TestRow(7, "VII"))])
    #expect(stale.first == 0x13, "an old content that is not the remembered one is stored: \(stale)")
    let delete = try writer.encode(events: [.deleteItems(ListOutline(items: [TestRow(7, "VII")]), from: Self.location)])
    #expect(delete.first == 0x1E && delete.count <= 4, "\(delete)")
    // A new integer identifier is stored relative to the previous one: 201 after 200 takes one
    // byte instead of a tag and a two-byte varint.
    var lengths: [UInt16: Int] = [:]
    for minor in [0, 1] as [UInt16] {
      var codec = HistoryCodec<String, TestRow>()
      codec.encoderFormatMinor = minor
      _ = try codec.encode(events: [.insertItems(ListOutline(items: [TestRow(200, "")]), at: Self.location)])
      lengths[minor] = try codec.encode(events: [.insertItems(ListOutline(items: [TestRow(201, "")]), at: Self.location)]).count
    }
    #expect(lengths[1]! + 2 == lengths[0]!, "\(lengths)")

    // Longer strings inside contents are not interned in 1.1 (a repeat is stored again), short
    // ones are (a repeat is a one-byte reference) — in 1.0 both are.
    for minor in [0, 1] as [UInt16] {
      var codec = HistoryCodec<String, TestRow>()
      codec.encoderFormatMinor = minor
      func twice(_ title: String) throws -> (first: Int, second: Int) {
        let first = try codec.encode(events: [.insertItems(ListOutline(items: [TestRow(300, title)]), at: Self.location)])
        let second = try codec.encode(events: [.insertItems(ListOutline(items: [TestRow(301, title)]), at: Self.location)])
        return (first.count, second.count)
      }
      let short = try twice("done")
      #expect(short.second < short.first, "minor \(minor): \(short)")
      let long = try twice("a title of some length")
      if minor == 0 { #expect(long.second + 10 < long.first, "\(long)") } else { #expect(long.second + 10 > long.first, "\(long)") }
    }
  }

  @Test func unknownCompactFormsAreTypedErrors() throws {
    var reader = HistoryCodec<String, TestRow>()
    // A new item identifier of form 2 (only 0 and 1 exist): insertLeaf, section "S" new, index 0, item header.
    let bytes: [UInt8] = [0x1B, 0x01, 0x07, 0x01, 0x53, 0x00, 0x09]
    #expect(throws: HistoryCodecError.self) { _ = try reader.decodeEvents(bytes) }
    // A remembered update of an item whose content was never seen.
    var fresh = HistoryCodec<String, TestRow>()
    let define: [UInt8] = [0x1A, 0x01, 0x03, 0x02]  // reconfigureItems [new id via form 1, delta +1]
    _ = try fresh.decodeEvents(define)
    #expect(throws: HistoryCodecError.self) { _ = try fresh.decodeEvents([0x1D, 0x00, 0x03]) }
    #expect(throws: HistoryCodecError.self) { _ = try fresh.decodeEvents([0x1E, 0x01, 0x07, 0x01, 0x53, 0x00, 0x00]) }
  }

  @Test func journalValueCodableBridge() throws {
    struct Nested: Codable, Equatable {
      var a: [Int?]
      var b: [String: Double]
      var c: UInt8
      var d: Bool
      var e: Float
    }
    let value = Nested(a: [1, nil, -3], b: ["k": 2.5], c: 200, d: true, e: 1.5)
    let encoded = try JournalValue(encoding: value)
    #expect(encoded["c"] == .int(200))
    #expect(try encoded.decode(as: Nested.self) == value)
    #expect(encoded.jsonText == #"{"a":[1,null,-3],"b":{"k":2.5},"c":200,"d":true,"e":1.5}"#)
    #expect(throws: (any Error).self) { try JournalValue.string("x").decode(as: Nested.self) }
  }
}
