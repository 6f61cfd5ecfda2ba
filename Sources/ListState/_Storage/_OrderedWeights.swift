/// Running totals kept by an internal node of an ``_OrderedTree``: `prefix[i]` sums the
/// element count and both weights of children `0...i`, so that finding a child by index or
/// weight is a binary search and the totals before a child are one read.
@usableFromInline
struct _OrderedWeights: Sendable, Equatable {
  @usableFromInline
  var count: Int
  @usableFromInline
  var w1: Int
  @usableFromInline
  var w2: Int

  @inlinable
  init(count: Int, w1: Int, w2: Int) {
    self.count = count
    self.w1 = w1
    self.w2 = w2
  }

  @inlinable
  static var zero: _OrderedWeights { _OrderedWeights(count: 0, w1: 0, w2: 0) }
}

/// Running weight totals of a leaf of an ``_OrderedTree``: `prefix[i]` sums entries `0...i`.
/// `UInt32` keeps leaves compact (a list holds far fewer than 4 billion items).
@usableFromInline
struct _LeafWeights: Sendable, Equatable {
  @usableFromInline
  var w1: UInt32
  @usableFromInline
  var w2: UInt32

  @inlinable
  init(w1: UInt32, w2: UInt32) {
    self.w1 = w1
    self.w2 = w2
  }
}
