/// One sequence of siblings (a section's root items or an item's children) inside a
/// ``ListFold``: identifiers in blocks of a few hundred, with the block sizes kept in a separate
/// contiguous array.
///
/// Positional edits are what folding events needs (every event names exact indices), and a
/// block list makes them cheap without a tree: finding the block of an index scans the small
/// `counts` array (a handful of cache lines for tens of thousands of siblings), and the edit
/// shifts at most one block. Unlike ``ListSnapshot``'s trees it is not persistent — copying it
/// copies the block array — which is fine for a fold's single mutable state.
///
/// ```swift
/// var siblings = _FoldSiblings<Int>()
/// siblings.insert(1, at: 0)
/// siblings.insert(2, at: 0)
/// siblings[0]   // 2
/// ```
/// - Complexity: O(n / b + b) per positional read, insertion or removal for b ≈ ``blockCapacity``.
@usableFromInline
struct _FoldSiblings<ID: Hashable & Sendable>: Sendable {
  /// The identifiers, in order, split into blocks.
  @usableFromInline
  var blocks: [[ID]] = []
  /// `blocks[i].count`, kept apart so that finding an index never touches the blocks' storage.
  @usableFromInline
  var counts: [Int] = []
  /// The number of identifiers.
  @usableFromInline
  var count: Int = 0

  /// A block is split when it grows beyond twice this size.
  @inlinable
  static var blockCapacity: Int { 256 }

  @inlinable
  init() {}

  /// A sequence holding `ids`, in blocks of ``blockCapacity``.
  @inlinable
  init(_ ids: [ID]) {
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

  /// The identifier at `index`.
  @inlinable
  subscript(index: Int) -> ID {
    let (block, offset) = locate(index)
    return blocks[block][offset]
  }

  /// Inserts `id` so that it ends up at `index` (`0 ... count`).
  @inlinable
  mutating func insert(_ id: ID, at index: Int) {
    if blocks.isEmpty {
      blocks.append([id])
      counts.append(1)
      count = 1
      return
    }
    let (block, offset) = index == count ? (blocks.count - 1, counts[blocks.count - 1]) : locate(index)
    blocks[block].insert(id, at: offset)
    counts[block] &+= 1
    count &+= 1
    if counts[block] > 2 * Self.blockCapacity { split(block) }
  }

  /// Removes and returns the identifier at `index`.
  @inlinable
  @discardableResult
  mutating func remove(at index: Int) -> ID {
    let (block, offset) = locate(index)
    let id = blocks[block].remove(at: offset)
    counts[block] &-= 1
    count &-= 1
    if counts[block] == 0 {
      blocks.remove(at: block)
      counts.remove(at: block)
    }
    return id
  }

  /// Replaces the identifier at `index`.
  @inlinable
  mutating func replace(at index: Int, with id: ID) {
    let (block, offset) = locate(index)
    blocks[block][offset] = id
  }

  /// The position of `id`, by a linear scan (for the rare events that carry no position).
  ///
  /// - Complexity: O(n).
  @inlinable
  func firstIndex(of id: ID) -> Int? {
    var base = 0
    for block in blocks.indices {
      if let offset = blocks[block].firstIndex(of: id) { return base + offset }
      base += counts[block]
    }
    return nil
  }

  /// Calls `body` with every identifier, in order.
  @inlinable
  func forEach(_ body: (ID) throws -> Void) rethrows {
    for block in blocks { for id in block { try body(id) } }
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
