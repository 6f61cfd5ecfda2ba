/// One sequence of siblings (a section's root items or an item's children) inside a
/// ``ListFold``: the siblings' record slots in blocks of a few hundred, with the block sizes kept
/// in a separate contiguous array.
///
/// Slots rather than identifiers: an event names a position, and the slot found there leads
/// straight to the record (to check the identifier, re-parent a moved item, or build the
/// snapshot) without hashing anything; 4-byte slots also halve what an edit shifts.
///
/// Positional edits are what folding events needs (every event names exact indices), and a
/// block list makes them cheap without a tree: finding the block of an index scans the small
/// `counts` array (a handful of cache lines for tens of thousands of siblings), and the edit
/// shifts at most one block. Unlike ``ListSnapshot``'s trees it is not persistent — copying it
/// copies the block array — which is fine for a fold's single mutable state.
///
/// ```swift
/// var siblings = _FoldSiblings()
/// siblings.insert(1, at: 0)
/// siblings.insert(2, at: 0)
/// siblings[0]   // 2
/// ```
/// - Complexity: O(n / b + b) per positional read, insertion or removal for b ≈ ``blockCapacity``.
@usableFromInline
struct _FoldSiblings: Sendable {
  /// The record slots, in order, split into blocks.
  @usableFromInline
  var blocks: [[Int32]] = []
  /// `blocks[i].count`, kept apart so that finding an index never touches the blocks' storage.
  @usableFromInline
  var counts: [Int] = []
  /// The number of siblings.
  @usableFromInline
  var count: Int = 0

  /// A block is split when it grows beyond twice this size.
  @inlinable
  static var blockCapacity: Int { 256 }

  @inlinable
  init() {}

  /// A sequence holding `ids`, in blocks of ``blockCapacity``.
  @inlinable
  init(_ ids: [Int32]) {
    var start = 0
    while start < ids.count {
      let end = Swift.min(start + Self.blockCapacity, ids.count)
      blocks.append(Array(ids[start..<end]))
      counts.append(end - start)
      start = end
    }
    count = ids.count
  }

  @inlinable
  var isEmpty: Bool { count == 0 }

  /// The block and the offset in it of position `index` (`0 ..< count`).
  @inlinable
  @inline(__always)
  func locate(_ index: Int) -> (block: Int, offset: Int) {
    var offset = index
    var block = 0
    // Counts are contiguous: the scan reads a few cache lines, never a block.
    while offset >= counts[block] {
      offset &-= counts[block]
      block &+= 1
    }
    return (block, offset)
  }

  /// The slot at `index`.
  @inlinable
  subscript(index: Int) -> Int32 {
    self[locate(index)]
  }

  /// The slot at a position ``locate(_:)`` returned (nothing changed since).
  @inlinable
  subscript(position: (block: Int, offset: Int)) -> Int32 {
    blocks[position.block][position.offset]
  }

  /// Inserts `id` so that it ends up at `index` (`0 ... count`).
  @inlinable
  mutating func insert(_ id: Int32, at index: Int) {
    if blocks.isEmpty {
      blocks.append([id])
      counts.append(1)
      count = 1
      return
    }
    let (block, offset) = index == count ? (blocks.count - 1, counts[blocks.count - 1]) : locate(index)
    Self._insert(id, at: offset, into: &blocks[block])
    counts[block] &+= 1
    count &+= 1
    if counts[block] > 2 * Self.blockCapacity { split(block) }
  }

  /// Inserts `ids` so that the first ends up at `index` (`0 ... count`).
  ///
  /// - Complexity: O(k · (n / b + b)) for k slots; O(k) into an empty sequence.
  @inlinable
  mutating func insert(contentsOf ids: [Int32], at index: Int) {
    if isEmpty {
      self = _FoldSiblings(ids)
      return
    }
    for offset in ids.indices { insert(ids[offset], at: index + offset) }
  }

  /// Removes and returns the slot at `index`.
  @inlinable
  @discardableResult
  mutating func remove(at index: Int) -> Int32 {
    remove(at: locate(index))
  }

  /// Removes and returns the slot at a position ``locate(_:)`` returned (nothing changed
  /// since): a caller that read the slot there first does not scan the counts again.
  ///
  /// - Complexity: O(b) for b ≈ ``blockCapacity`` (plus O(n / b) when the block empties).
  @inlinable
  @discardableResult
  mutating func remove(at position: (block: Int, offset: Int)) -> Int32 {
    let (block, offset) = position
    let id = Self._remove(at: offset, from: &blocks[block])
    counts[block] &-= 1
    count &-= 1
    if counts[block] == 0 {
      blocks.remove(at: block)
      counts.remove(at: block)
    }
    return id
  }

  /// Calls `body` with every slot, in order.
  @inlinable
  func forEach(_ body: (Int32) throws -> Void) rethrows {
    for block in blocks { for id in block { try body(id) } }
  }

  /// Inserts `id` at `offset` of one block: the slots after it move up by one.
  ///
  /// Appending and then shifting the tail in place costs a plain memory move; `Array.insert`
  /// goes through the generic range replacement, several times the instructions for one slot.
  ///
  /// - Complexity: O(k) for k slots after `offset`, amortized over the block's growth.
  @inlinable
  @inline(__always)
  static func _insert(_ id: Int32, at offset: Int, into block: inout [Int32]) {
    block.append(id)
    let last = block.count &- 1
    guard offset < last else { return }
    block.withUnsafeMutableBufferPointer { slots in
      let base = slots.baseAddress!
      // The ranges overlap, which `update(from:count:)` allows (a memory move for `Int32`).
      (base + offset + 1).update(from: base + offset, count: last &- offset)
      base[offset] = id
    }
  }

  /// Removes and returns the slot at `offset` of one block: the slots after it move down by one.
  ///
  /// - Complexity: O(k) for k slots after `offset`.
  @inlinable
  @inline(__always)
  static func _remove(at offset: Int, from block: inout [Int32]) -> Int32 {
    let last = block.count &- 1
    guard offset < last else { return block.removeLast() }
    let id = block.withUnsafeMutableBufferPointer { slots in
      let base = slots.baseAddress!
      let id = base[offset]
      base.advanced(by: offset).update(from: base + offset + 1, count: last &- offset)
      return id
    }
    block.removeLast()
    return id
  }

  /// Splits an over-full block in two halves.
  @inlinable
  mutating func split(_ block: Int) {
    let half = counts[block] / 2
    let upper = Array(blocks[block][half...])
    blocks[block].removeSubrange(half...)
    blocks.insert(upper, at: block + 1)
    counts.insert(counts[block] - half, at: block + 1)
    counts[block] = half
  }

  /// Checks the block bookkeeping (tests build with `LISTJOURNAL_INVARIANTS`).
  @inlinable
  func _checkInvariants() {
    #if LISTJOURNAL_INVARIANTS
    precondition(blocks.count == counts.count, "one count per block")
    var total = 0
    for block in blocks.indices {
      precondition(blocks[block].count == counts[block], "block \(block) holds \(blocks[block].count), count says \(counts[block])")
      precondition(counts[block] > 0, "empty block \(block)")
      total += counts[block]
    }
    precondition(total == count, "blocks hold \(total) identifiers, count says \(count)")
    #endif
  }
}
