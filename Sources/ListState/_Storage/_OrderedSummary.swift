/// What an internal node of an ``_OrderedTree`` knows about one child without dereferencing it:
/// the smallest label below it and the totals of its subtree.
///
/// Kept in a contiguous array beside the child pointers so that searching an internal node by
/// label, index or weight scans one small buffer instead of chasing every child.
@usableFromInline
struct _OrderedSummary: Sendable {
  @usableFromInline
  var minLabel: UInt64
  @usableFromInline
  var count: Int
  @usableFromInline
  var w1: Int
  @usableFromInline
  var w2: Int

  @inlinable
  init(minLabel: UInt64, count: Int, w1: Int, w2: Int) {
    self.minLabel = minLabel
    self.count = count
    self.w1 = w1
    self.w2 = w2
  }
}
