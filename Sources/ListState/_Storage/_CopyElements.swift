/// Copies `count` elements from `source` into uninitialized memory at `target`, one at a time.
///
/// `UnsafeMutablePointer.initialize(from:count:)` of a type that is not trivial (a record with a
/// reference, a node reference) is a runtime call that copies each element through the type's
/// value witness, even in specialized code. This loop, inlined and specialized, copies an
/// element with a few loads and stores and the retains of its references: a path copy (one per
/// edit of a snapshot that was kept) copies every element of each node on the path. Trivial
/// types keep the bulk copy.
///
/// ```swift
/// _copyElements(from: node.items, to: copy.items, count: node.count)
/// ```
/// - Complexity: O(count).
@inlinable
@inline(__always)
func _copyElements<T>(from source: UnsafeMutablePointer<T>, to target: UnsafeMutablePointer<T>, count: Int) {
  if _isPOD(T.self) {
    target.initialize(from: source, count: count)
    return
  }
  var i = 0
  while i < count {
    (target + i).initialize(to: source[i])
    i &+= 1
  }
}
