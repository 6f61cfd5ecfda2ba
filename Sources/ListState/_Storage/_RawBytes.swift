/// Byte-wise comparison of two values' representations, shared by the lookups that find an
/// identifier by its bytes before hashing it (a list's few sections).
///
/// Equal bytes imply equal values (`==` is reflexive), and an identifier passed around is
/// usually the very same bytes as the stored one (a small `String` is stored inline), while
/// `==` on two *different* small strings costs as much as hashing one.
///
/// ```swift
/// withUnsafeBytes(of: "S1") { a in withUnsafeBytes(of: "S1") { b in _RawBytes.equal(a, b) } }   // true
/// ```
@usableFromInline
package enum _RawBytes {
  /// Whether `a` and `b` hold the same bytes, compared a word at a time when their size allows
  /// (a byte-wise `elementsEqual` does several instructions of work per byte).
  ///
  /// - Complexity: O(size).
  @inlinable
  @inline(__always)
  package static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    let size = a.count
    guard size == b.count, size & 7 == 0, size > 0 else { return a.elementsEqual(b) }
    var offset = 0
    while offset < size {
      if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
        return false
      }
      offset &+= 8
    }
    return true
  }
}
