import ListState

/// The compact binary encoding of history records: commits (with their events), head moves and
/// full-state checkpoints.
///
/// The codec is **stateful per journal stream**: the first occurrence of an identifier, a
/// string or an object shape (its key list) defines an intern index, and later occurrences cost
/// that small number. ``reset()`` clears the tables; encoding or decoding a checkpoint resets
/// them first, so a reader can start decoding at any checkpoint (a journal frame start).
/// Encoder and decoder keep separate tables, so one codec value serves one direction per stream.
///
/// Values are self-describing (``JournalValue``): a generic reader (``generic()``) decodes any
/// journal without the app's types. Each element is stored as its identifier value plus its
/// content value, where the content's copy of the identifier is replaced by a one-byte marker.
///
/// ```swift
/// var writer = HistoryCodec<String, Contact>()
/// let record = try writer.encode(.commit(commit), sequence: 1)
/// var reader = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
/// let content = try reader.decode(record)    // the same commit, as generic values
/// ```
public struct HistoryCodec<Section: ListElement, Item: ListElement>: Sendable {
  let sectionCoding: _ElementCoding<Section>
  let itemCoding: _ElementCoding<Item>
  var encoderTables = _EncoderTables<Section.ID, Item.ID>()
  var decoderTables = _DecoderTables<Section.ID, Item.ID>()

  /// Strings up to this many UTF-8 bytes are interned.
  static var internedStringLimit: Int { 256 }
  /// Nesting limit of values (arrays/objects) — bounds recursion on untrusted input.
  static var maximumValueDepth: Int { 64 }

  init(sectionCoding: _ElementCoding<Section>, itemCoding: _ElementCoding<Item>) {
    self.sectionCoding = sectionCoding
    self.itemCoding = itemCoding
  }

  /// A codec for an app's own `Codable` element types (identifiers `Codable` too). `String`,
  /// `Int` and ``JournalValueConvertible`` identifiers and contents take a fast path.
  public init() where Section: Codable, Section.ID: Codable, Item: Codable, Item.ID: Codable {
    self.init(sectionCoding: .codable(), itemCoding: .codable())
  }

  /// Clears the intern tables and the timestamp base of both directions.
  ///
  /// - Complexity: O(1) amortized (the tables are dropped).
  public mutating func reset() {
    encoderTables = _EncoderTables()
    decoderTables = _DecoderTables()
  }

  /// The bytes written since the encoder's last reset would be needed to decode a record:
  /// where the encoder's intern tables stand (for rolling back a record that was not stored).
  struct EncoderMark {
    var sections: Int, items: Int, strings: Int, shapes: Int, timestamp: Int64
  }

  var encoderMark: EncoderMark {
    EncoderMark(
      sections: encoderTables.sectionList.count, items: encoderTables.itemList.count,
      strings: encoderTables.stringList.count, shapes: encoderTables.shapeList.count,
      timestamp: encoderTables.lastTimestamp)
  }

  /// Forgets every intern entry defined after `mark` (the record that defined them was dropped).
  mutating func rollBackEncoder(to mark: EncoderMark) {
    encoderTables.rollBack(to: mark)
  }
}

extension HistoryCodec where Section == JournalValueElement, Item == JournalValueElement {
  /// A codec that reads (and writes) any journal as generic values, without the app's types.
  public static func generic() -> Self {
    Self(sectionCoding: .generic, itemCoding: .generic)
  }
}

struct _EncoderTables<SectionID: Hashable, ItemID: Hashable>: Sendable where SectionID: Sendable, ItemID: Sendable {
  var sections: [SectionID: Int] = [:]
  var sectionList: [SectionID] = []
  var items: [ItemID: Int] = [:]
  var itemList: [ItemID] = []
  var strings: [String: Int] = [:]
  var stringList: [String] = []
  var shapes: [[String]: Int] = [:]
  var shapeList: [[String]] = []
  /// The index of the shape written last (the encoder tries it first).
  var lastShape: Int?
  var lastTimestamp: Int64 = 0

  mutating func rollBack<S, I>(to mark: HistoryCodec<S, I>.EncoderMark) {
    while sectionList.count > mark.sections { sections[sectionList.removeLast()] = nil }
    while itemList.count > mark.items { items[itemList.removeLast()] = nil }
    while stringList.count > mark.strings { strings[stringList.removeLast()] = nil }
    while shapeList.count > mark.shapes { shapes[shapeList.removeLast()] = nil }
    if let last = lastShape, last >= shapeList.count { lastShape = nil }
    lastTimestamp = mark.timestamp
  }
}

struct _DecoderTables<SectionID: Hashable, ItemID: Hashable>: Sendable where SectionID: Sendable, ItemID: Sendable {
  var sections: [SectionID] = []
  var sectionValues: [JournalValue] = []
  var items: [ItemID] = []
  var itemValues: [JournalValue] = []
  var strings: [String] = []
  var shapes: [[String]] = []
  var lastTimestamp: Int64 = 0
}
