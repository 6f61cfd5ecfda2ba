import CMemoryHints
import ListState

/// Asks for the memory a flat replay's next events will read before its fold gets to them.
///
/// On a large list nearly every event costs two cache misses in a row: the identifier table's
/// bucket, then the record its slot leads to (each a dependent load into tens of megabytes). In
/// a pipelined replay the next events of a batch are already decoded. Ahead of the event being
/// applied, ``advance(to:in:fold:)`` requests the bucket of the item ``tableDistance`` events
/// ahead and, once that bucket has had time to arrive, the record its first matching slot leads
/// to ``recordDistance`` events ahead. The hints never change what the fold computes: a wrong
/// guess (a hash collision, an earlier event that moves things) only loads a line nobody reads.
///
/// On a list larger than the cache those two stalls were most of `ListFold._apply`; a list
/// that fits the cache neither gains nor loses. See Tools/Benchmarks/README.md, Replay.
///
/// ```swift
/// var prefetcher = _FoldPrefetcher()
/// for index in events.indices {
///   prefetcher.advance(to: index, in: &events, fold: fold)
///   try fold._apply(&events[index], verifying: true)
/// }
/// ```
/// - Complexity: O(1) per event: a hash, two hints and a probe of a bucket already requested.
@usableFromInline
struct _FoldPrefetcher {
  /// How many events ahead an item's table bucket is requested.
  @inlinable
  static var tableDistance: Int { 8 }
  /// How many events ahead the record behind a requested bucket is requested.
  @inlinable
  static var recordDistance: Int { 4 }

  /// The ``ListEvent/_foldedItemHash()`` of the events whose buckets were requested (a ring,
  /// indexed by event index).
  @usableFromInline var hashes = [Int](repeating: 0, count: 16)
  /// The next event whose bucket is to be requested.
  @usableFromInline var tableNext = 0
  /// The next event whose record is to be requested.
  @usableFromInline var recordNext = 0

  @inlinable
  init(hashes: [Int] = [Int](repeating: 0, count: 16), tableNext: Int = 0, recordNext: Int = 0) {
    self.hashes = hashes
    self.tableNext = tableNext
    self.recordNext = recordNext
  }

  /// Starts over for another array of events.
  @inlinable
  mutating func reset() {
    tableNext = 0
    recordNext = 0
  }

  /// Requests what the events of `events` from `index` on will read, up to the distances above.
  @inlinable
  mutating func advance<Section, Item>(
    to index: Int, in events: inout [ListEvent<Section, Item>], fold: ListFold<Section, Item>
  ) {
    let tableEnd = min(events.count, index + Self.tableDistance)
    tableNext = max(tableNext, index)
    while tableNext < tableEnd {
      // In place (inout): read from the array, or through a borrowed event, the switch that
      // binds the identifier would copy the whole event first (its value witness: a retain and
      // release of every payload), for every event the folding thread looks ahead at.
      let hash = events[tableNext]._foldedItemHash()
      hashes[tableNext & 15] = hash
      fold._prefetchTableEntry(hash: hash)
      tableNext += 1
    }
    let recordEnd = min(tableNext, index + Self.recordDistance)
    recordNext = max(recordNext, index)
    while recordNext < recordEnd {
      fold._prefetchRecord(hash: hashes[recordNext & 15])
      recordNext += 1
    }
  }
}

extension ListEvent {
  /// The hash of the item whose table entry (and, when it exists, record) a ``ListFold``
  /// applying the event reads first; 0 when it names none (a wasted hint at worst).
  ///
  /// Mutating only so that the switch reads the payloads in place (see
  /// ``_FoldPrefetcher/advance(to:in:fold:)``); the event does not change.
  @inlinable
  mutating func _foldedItemHash() -> Int {
    switch self {
    case .insertItems(let outline, _), .deleteItems(let outline, _): outline.roots.first?.item.id.hashValue ?? 0
    case .moveItem(let id, _, _): id.hashValue
    case .updateItem(_, let new): new.id.hashValue
    case .replaceItem(let old, _): old.id.hashValue
    case .expand(let id, _), .collapse(let id, _): id.hashValue
    default: 0
    }
  }
}

extension ListFold {
  /// Starts loading the bucket where the table's probe for `hash` begins.
  @inlinable
  func _prefetchTableEntry(hash: Int) {
    let bucket = hash & _table._buckets.mask
    _table._buckets.words.withUnsafeBufferPointer { cmemoryhints_prefetch($0.baseAddress! + bucket) }
  }

  /// Starts loading the record of the first slot the table holds under `hash`'s bits (read
  /// from a bucket requested earlier); nothing when there is none.
  @inlinable
  func _prefetchRecord(hash: Int) {
    guard let slot = _firstSlot(matching: hash) else { return }
    _records.withUnsafeBufferPointer { cmemoryhints_prefetch($0.baseAddress! + slot) }
  }

  /// The first slot the table holds under `hash`'s bits, without comparing identifiers: the
  /// item's own slot unless another item's hash shares those 32 bits and comes first.
  @inlinable
  func _firstSlot(matching hash: Int) -> Int? { _table.find(hash: hash, { _ in true }) }
}
