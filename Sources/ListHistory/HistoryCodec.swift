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
/// **Encodings.** Decoding accepts every encoding revision; the encoder writes the one chosen by
/// ``encoderFormatMinor`` (journal format 1.1 by default, see `Journal/FORMAT.md` §10). Since 1.1
/// both directions also remember the content each item was last written with, so an update or a
/// single-item delete whose old content is that one names only the item, and integer
/// identifiers of new items are stored relative to the previous new one.
///
/// ```swift
/// var writer = HistoryCodec<String, Contact>()
/// let record = try writer.encode(.commit(commit), sequence: 1)
/// var reader = HistoryCodec<JournalValueElement, JournalValueElement>.generic()
/// let content = try reader.decode(record)    // the same commit, as generic values
/// ```
public struct HistoryCodec<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline let sectionCoding: _ElementCoding<Section>
  @usableFromInline let itemCoding: _ElementCoding<Item>
  @usableFromInline var encoderTables = _EncoderTables<Section.ID, Item.ID>()
  @usableFromInline var decoderTables = _DecoderTables<Section, Item>()
  /// What decoding keeps of the items the records name (see ``DecodingMode``). Not part of
  /// the tables: resetting them keeps it.
  @usableFromInline package var decodingMode = DecodingMode.keepingContents

  /// The newest journal format minor (of major 1) whose history encoding this codec writes.
  @inlinable
  public static var currentFormatMinor: UInt16 { 1 }

  /// Which encoding the encoder writes: `0` is format 1.0's (readable by every 1.x reader),
  /// `1` adds the compact forms of format 1.1 (see the type's summary). Decoding accepts both
  /// whatever this says. A journal keeps the encoding its file header announces: `JournalStore`
  /// lowers this to the minor of the file it appends to.
  ///
  /// ```swift
  /// var codec = HistoryCodec<String, Contact>()
  /// codec.encoderFormatMinor = 0     // records an older ListJournal can still read
  /// ```
  public var encoderFormatMinor: UInt16 = HistoryCodec.currentFormatMinor {
    didSet { encoderFormatMinor = min(encoderFormatMinor, Self.currentFormatMinor) }
  }

  /// Whether the encoder may use the compact forms of format 1.1.
  @inlinable
  var writesCompactForms: Bool { encoderFormatMinor >= 1 }

  /// Set by a ``ListStore`` that encodes every change of its state with this codec, in order:
  /// then a remembered content can be known to be the item's content in the state the next
  /// record applies to (see `_EncoderTables.currentContents`), and encoding reuses it instead of
  /// encoding the item again. A codec used on its own (``encode(_:sequence:)`` with events of
  /// any origin) never assumes that, so its output depends only on the records it is given.
  /// The bytes written are the same either way.
  @usableFromInline var tracksCurrentContents = false
  /// Set by decoding a gap record: the next checkpoint is decoded with its state even when the
  /// caller skips checkpoints' states (a replay resumes the history there).
  @usableFromInline var resumesAfterGap = false

  /// Strings up to this many UTF-8 bytes are interned.
  @inlinable
  static var internedStringLimit: Int { 256 }
  /// Format 1.1: strings inside element contents are interned only up to this many UTF-8 bytes.
  @inlinable
  static var internedContentStringLimit: Int { 8 }
  /// Nesting limit of values (arrays/objects) — bounds recursion on untrusted input.
  @inlinable
  static var maximumValueDepth: Int { 64 }

  @inlinable
  init(sectionCoding: _ElementCoding<Section>, itemCoding: _ElementCoding<Item>) {
    self.sectionCoding = sectionCoding
    self.itemCoding = itemCoding
  }

  /// A codec for an app's own `Codable` element types (identifiers `Codable` too). `String`,
  /// `Int` and ``JournalValueConvertible`` identifiers and contents take a fast path.
  @inlinable
  public init() where Section: Codable, Section.ID: Codable, Item: Codable, Item.ID: Codable {
    self.init(sectionCoding: .codable(), itemCoding: .codable())
  }

  /// Clears the intern tables and the timestamp base of both directions (the
  /// ``decodingMode`` stays).
  ///
  /// - Complexity: O(1) amortized (the tables are dropped).
  @inlinable
  public mutating func reset() {
    reset(keepingDecoderStorage: false)
  }

  /// ``reset()``; `keepingDecoderStorage` empties the decoder's tables but keeps their storage
  /// (see `_DecoderTables.removeAll()`), for a codec no copy shares.
  @inlinable
  mutating func reset(keepingDecoderStorage: Bool) {
    encoderTables = _EncoderTables()
    if keepingDecoderStorage { return decoderTables.removeAll() }
    decoderTables = _DecoderTables()
  }

  /// Where the encoder's tables stand before a record (for rolling back a record that was not
  /// stored): table sizes, the timestamp and new-identifier bases, and the start of the log of
  /// remembered contents the record overwrites.
  @usableFromInline
  struct EncoderMark {
    @usableFromInline
    var sections: Int, items: Int, strings: Int, shapes: Int, timestamp: Int64, newItemBase: Int64

    @inlinable
    init(sections: Int, items: Int, strings: Int, shapes: Int, timestamp: Int64, newItemBase: Int64) {
      self.sections = sections
      self.items = items
      self.strings = strings
      self.shapes = shapes
      self.timestamp = timestamp
      self.newItemBase = newItemBase
    }
  }

  /// Marks the encoder's state before encoding one record. Only the record encoded next can be
  /// rolled back to this mark: taking a mark forgets how to undo earlier records.
  @inlinable
  mutating func markEncoder() -> EncoderMark {
    encoderTables.contentLog.removeAll(keepingCapacity: true)
    return EncoderMark(
      sections: encoderTables.sectionList.count, items: encoderTables.items.count,
      strings: encoderTables.strings.count, shapes: encoderTables.shapeList.count,
      timestamp: encoderTables.lastTimestamp, newItemBase: encoderTables.newItemBase)
  }

  /// Forgets every intern entry defined after `mark` and restores the remembered contents the
  /// record overwrote (the record that changed them was dropped).
  @inlinable
  mutating func rollBackEncoder(to mark: EncoderMark) {
    encoderTables.rollBack(to: mark)
  }
}

extension HistoryCodec where Section == JournalValueElement, Item == JournalValueElement {
  /// A codec that reads (and writes) any journal as generic values, without the app's types.
  @inlinable
  public static func generic() -> Self {
    Self(sectionCoding: .generic, itemCoding: .generic)
  }
}

extension HistoryCodec {
  /// What decoding keeps of each item the records name, for what comes after the decoding.
  ///
  /// ```swift
  /// var reader = HistoryCodec<String, Contact>()
  /// reader.decodingMode = .droppingContents   // a reader that never encodes
  /// ```
  @usableFromInline
  package enum DecodingMode: Sendable, Hashable {
    /// The item and the content value it was read with (the default): an encoder continuing
    /// the stream needs the contents (``continueEncodingAfterDecoding()``).
    case keepingContents
    /// The item only, each content value freed once decoded, instead of staying in the tables
    /// until the item's next update: for a reader that never encodes (time travel, a replay
    /// without a sink).
    case droppingContents
    /// Neither, for a replay whose state holds every item: a remembered item (an update's old
    /// content, a remembered leaf's deletion) is left for the replay to take from its state,
    /// and its event is decoded with a stand-in, listed in `_DecoderTables.itemsFromState`
    /// (see ``_ItemFromState``).
    ///
    /// Why: a remembered item is a cache miss in the tables (read at random), often with a
    /// `Codable` decoding of the content a checkpoint left, on the decoding thread that bounds
    /// a pipelined replay; its folding thread reads the item's record for the event anyway.
    case leavingRememberedItemsToTheState
  }

  /// Remembers `item`, read with `content`, as the last content of the item at `index`, as
  /// the ``decodingMode`` says.
  @inlinable
  mutating func rememberDecoded(_ item: Item, content: JournalValue, forItem index: Int) {
    switch decodingMode {
    case .keepingContents:
      decoderTables.items[index].item = item
      decoderTables.items[index].content = content
    case .droppingContents:
      decoderTables.items[index].item = item
      decoderTables.items[index].content = nil
    case .leavingRememberedItemsToTheState:
      return
    }
  }
}

/// The encoder's side of the intern tables (see ``HistoryCodec``).
///
/// Items and strings — the tables every record consults, and which grow to hundreds of
/// thousands of entries between checkpoints — are ``_IdentifierTable``s: one bucket line and
/// the key per lookup, where a `Dictionary` touches three cold lines. Callers hash an
/// identifier once and pass the hash to every table call.
@usableFromInline
struct _EncoderTables<SectionID: Hashable, ItemID: Hashable>: Sendable where SectionID: Sendable, ItemID: Sendable {
  @usableFromInline var sections: [SectionID: Int] = [:]
  @usableFromInline var sectionList: [SectionID] = []
  /// Item identifiers by intern index.
  @usableFromInline var items = _IdentifierTable<ItemID>()
  /// The content value each item (by intern index) was last written with; nil before any.
  @usableFromInline var itemContents: [JournalValue?] = []
  /// Parallel to `itemContents` (only with `HistoryCodec.tracksCurrentContents`): whether the
  /// remembered content is the content of the item's value in the store's current state —
  /// written by the last record that changed the item, with no head move or failed record
  /// since. Then an update or delete of the item need not encode its old value to compare it,
  /// and a checkpoint takes the content from here instead of encoding the item again (through
  /// `Codable`, which would be most of a large list's checkpoint).
  @usableFromInline var currentContents: [Bool] = []
  /// (index, previous content) for every remembered content the current record overwrote.
  @usableFromInline var contentLog: [(index: Int, previous: JournalValue?)] = []
  /// Interned strings by index.
  @usableFromInline var strings = _IdentifierTable<String>()
  @usableFromInline var shapes: [[String]: Int] = [:]
  @usableFromInline var shapeList: [[String]] = []
  /// The index of the shape written last (the encoder tries it first).
  @usableFromInline var lastShape: Int?
  @usableFromInline var lastTimestamp: Int64 = 0
  /// The integer identifier of the last new item written relative to its predecessor.
  @usableFromInline var newItemBase: Int64 = 0

  @inlinable
  init(sections: [SectionID: Int] = [:], sectionList: [SectionID] = [], items: _IdentifierTable<ItemID> = _IdentifierTable<ItemID>(), itemContents: [JournalValue?] = [], currentContents: [Bool] = [], contentLog: [(index: Int, previous: JournalValue?)] = [], strings: _IdentifierTable<String> = _IdentifierTable<String>(), shapes: [[String]: Int] = [:], shapeList: [[String]] = [], lastShape: Int? = nil, lastTimestamp: Int64 = 0, newItemBase: Int64 = 0) {
    self.sections = sections
    self.sectionList = sectionList
    self.items = items
    self.itemContents = itemContents
    self.currentContents = currentContents
    self.contentLog = contentLog
    self.strings = strings
    self.shapes = shapes
    self.shapeList = shapeList
    self.lastShape = lastShape
    self.lastTimestamp = lastTimestamp
    self.newItemBase = newItemBase
  }

  /// The intern index of item `id` (whose `hashValue` is `hash`), if it has one.
  @inlinable
  @inline(__always)
  func itemIndex(of id: ItemID, hash: Int) -> Int? { items.firstIndex(of: id, hash: hash) }

  /// The intern index of item `id`, if it has one.
  @inlinable
  func itemIndex(of id: ItemID) -> Int? { items.firstIndex(of: id, hash: id.hashValue) }

  /// Gives item `id` the next intern index (the caller knows it has none).
  @inlinable
  mutating func appendItem(_ id: ItemID, hash: Int) -> Int {
    itemContents.append(nil)
    currentContents.append(false)
    return items.append(id, hash: hash)
  }

  /// Remembers `content` as the item's last written content (logged for a rollback); `current`
  /// says whether it is the item's content in the store's current state.
  @inlinable
  mutating func remember(_ content: JournalValue, forItem index: Int, current: Bool) {
    contentLog.append((index, itemContents[index]))
    itemContents[index] = content
    currentContents[index] = current
  }

  /// Whether the remembered content of the item at `index` is its content in the current state.
  @inlinable
  func isCurrent(_ index: Int) -> Bool { currentContents[index] }

  /// The state changed without a record saying how (a head move): the remembered contents of
  /// `ids` may no longer be their items' contents.
  @inlinable
  mutating func forgetCurrentContents(of ids: some Sequence<ItemID>) {
    for id in ids {
      if let index = itemIndex(of: id) { currentContents[index] = false }
    }
  }

  /// Like ``forgetCurrentContents(of:)`` for every item.
  @inlinable
  mutating func forgetAllCurrentContents() {
    for index in currentContents.indices { currentContents[index] = false }
  }

  @inlinable
  mutating func rollBack<S, I>(to mark: HistoryCodec<S, I>.EncoderMark) {
    // A restored content is not known to be current (the record that overwrote it was dropped).
    while let (index, previous) = contentLog.popLast() {
      itemContents[index] = previous
      currentContents[index] = false
    }
    contentLog.removeAll()
    while sectionList.count > mark.sections { sections[sectionList.removeLast()] = nil }
    while items.count > mark.items { items.removeLast() }
    itemContents.removeLast(itemContents.count - items.count)
    currentContents.removeLast(currentContents.count - items.count)
    while strings.count > mark.strings { strings.removeLast() }
    while shapeList.count > mark.shapes { shapes[shapeList.removeLast()] = nil }
    if let last = lastShape, last >= shapeList.count { lastShape = nil }
    lastTimestamp = mark.timestamp
    newItemBase = mark.newItemBase
  }
}

@usableFromInline
struct _DecoderTables<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var sections: [Section.ID] = []
  @usableFromInline var sectionValues: [JournalValue] = []
  /// What the tables remember of each item, by intern index (parallel to `itemIDs`).
  @usableFromInline var items: [_DecodedItem<Item>] = []
  /// Item identifiers by intern index.
  ///
  /// Apart from the rest of each item's entry (`items`) because most references read only the
  /// identifier (a move, an expansion, a location's parent), at random across every item the
  /// stream named: in entries of the identifier alone, a million-item table is 8 MB for `Int`
  /// identifiers, mostly in cache, where the whole entries are 72 bytes an item.
  @usableFromInline var itemIDs: [Item.ID] = []
  @usableFromInline var strings: [String] = []
  @usableFromInline var shapes: [[String]] = []
  @usableFromInline var lastTimestamp: Int64 = 0
  @usableFromInline var newItemBase: Int64 = 0
  /// The buffer index the event being read will have (see `itemsFromState`).
  @usableFromInline var currentEvent = 0
  /// The events decoded with a stand-in for a remembered item (in the mode
  /// ``HistoryCodec/DecodingMode/leavingRememberedItemsToTheState``), by index in the buffer
  /// they were appended to, with the item's identifier (a pipelined replay swaps its batch's
  /// list in around each record).
  @usableFromInline var itemsFromState: [_ItemFromState<Item.ID>] = []

  @inlinable
  init(sections: [Section.ID] = [], sectionValues: [JournalValue] = [], items: [_DecodedItem<Item>] = [], itemIDs: [Item.ID] = [], strings: [String] = [], shapes: [[String]] = [], lastTimestamp: Int64 = 0, newItemBase: Int64 = 0, currentEvent: Int = 0, itemsFromState: [_ItemFromState<Item.ID>] = []) {
    self.sections = sections
    self.sectionValues = sectionValues
    self.items = items
    self.itemIDs = itemIDs
    self.strings = strings
    self.shapes = shapes
    self.lastTimestamp = lastTimestamp
    self.newItemBase = newItemBase
    self.currentEvent = currentEvent
    self.itemsFromState = itemsFromState
  }

  /// Empties the tables, keeping their storage: a reader resets them at every checkpoint, and
  /// the next stretch of records interns about as many entries again (a checkpoint alone
  /// defines one per item). Growing them afresh each time reallocated and copied arrays of up to
  /// a million entries a few times over.
  @inlinable
  mutating func removeAll() {
    sections.removeAll(keepingCapacity: true)
    sectionValues.removeAll(keepingCapacity: true)
    itemIDs.removeAll(keepingCapacity: true)
    items.removeAll(keepingCapacity: true)
    strings.removeAll(keepingCapacity: true)
    shapes.removeAll(keepingCapacity: true)
    lastTimestamp = 0
    newItemBase = 0
  }
}

/// An event decoded with a stand-in for a remembered item, which the replay's state fills in
/// (see `HistoryCodec.DecodingMode.leavingRememberedItemsToTheState`): an update's old item
/// (the stand-in is the new one), or the leaf a deletion removes (an empty outline).
@usableFromInline
struct _ItemFromState<ItemID: Hashable & Sendable>: Sendable {
  /// The event's index in the buffer it was decoded into.
  @usableFromInline var event: Int
  @usableFromInline var id: ItemID

  @inlinable
  init(event: Int, id: ItemID) {
    self.event = event
    self.id = id
  }
}

/// What the decoder's tables know of one interned item.
@usableFromInline
struct _DecodedItem<Item: ListElement>: Sendable {
  /// The identifier's journal value (the identifier itself is in `_DecoderTables.itemIDs`).
  @usableFromInline var idValue: JournalValue
  /// The item as last read; nil before any, or while only its content value is known (a
  /// checkpoint skipped without building its state leaves the values, decoded when a later
  /// record refers to them: see `HistoryCodec.rememberedItem(at:start:_:)`).
  @usableFromInline var item: Item? = nil
  /// The content value the item was last read with (see `HistoryCodec.DecodingMode`).
  @usableFromInline var content: JournalValue? = nil

  @inlinable
  init(idValue: JournalValue, item: Item? = nil, content: JournalValue? = nil) {
    self.idValue = idValue
    self.item = item
    self.content = content
  }
}

extension HistoryCodec {
  /// The state is about to change by `events` (nil: in ways not listed) without a record that
  /// names the items: stop treating their remembered contents as current.
  ///
  /// - Complexity: O(items named by the events), or O(items remembered) for nil.
  @inlinable
  mutating func forgetCurrentContents(changedBy events: [ListEvent<Section, Item>]?) {
    guard let events else { return encoderTables.forgetAllCurrentContents() }
    for event in events {
      switch event {
      case .insertSection(_, let items, _), .deleteSection(_, let items, _),
        .insertItems(let items, _), .deleteItems(let items, _):
        encoderTables.forgetCurrentContents(of: items.itemIdentifiers)
      case .updateItem(let old, let new), .replaceItem(let old, let new):
        encoderTables.forgetCurrentContents(of: [old.id, new.id])
      case .moveSection, .updateSection, .replaceSection, .reloadSections, .moveItem, .expand, .collapse,
        .reloadItems, .reconfigureItems:
        break  // no item's content changes
      }
    }
  }
}
