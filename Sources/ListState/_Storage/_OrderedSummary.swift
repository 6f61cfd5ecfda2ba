/// What an internal node of an ``_OrderedTree`` knows about one child without dereferencing it:
/// the smallest label below it and the totals of its subtree.
///
/// Kept in a contiguous array beside the child pointers so that searching an internal node by
/// label, index or weight scans one small buffer instead of chasing every child.
struct _OrderedSummary: Sendable {
  var minLabel: UInt64
  var count: Int
  var w1: Int
  var w2: Int
}
