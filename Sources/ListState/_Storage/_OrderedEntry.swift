/// One element of an ``_OrderedTree``: a sibling's order label, its identifier and the two
/// weights the tree sums.
///
/// For items, `w1` is the size of the item's subtree (the item plus all descendants) and `w2` the
/// number of visible rows it contributes (1 when collapsed, 1 + its children's rows when
/// expanded). For sections, `w1` is the section's item count and `w2` its visible row count.
///
/// Weights are stored as `UInt32` to keep leaves compact (a list is far below 4 billion items:
/// each item costs dozens of bytes of memory).
@usableFromInline
struct _OrderedEntry<ID: Hashable & Sendable>: Sendable {
  @usableFromInline
  var label: UInt64
  @usableFromInline
  var id: ID
  @usableFromInline
  var _w1: UInt32
  @usableFromInline
  var _w2: UInt32

  @inlinable
  init(label: UInt64 = 0, id: ID, w1: Int, w2: Int) {
    self.label = label
    self.id = id
    self._w1 = UInt32(truncatingIfNeeded: w1)
    self._w2 = UInt32(truncatingIfNeeded: w2)
  }

  /// Subtree size (items) or item count (sections).
  @inlinable
  var w1: Int {
    get { Int(_w1) }
    set { _w1 = UInt32(truncatingIfNeeded: newValue) }
  }

  /// Visible rows.
  @inlinable
  var w2: Int {
    get { Int(_w2) }
    set { _w2 = UInt32(truncatingIfNeeded: newValue) }
  }
}
