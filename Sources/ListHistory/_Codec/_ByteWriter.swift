/// Appends bytes, LEB128 varints and zigzag integers.
@usableFromInline
struct _ByteWriter {
  @usableFromInline var bytes: [UInt8]

  /// Starts with room for a typical record, so small records never regrow the array.
  @inlinable
  init(capacity: Int = 64) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  @inlinable
  @inline(__always) mutating func byte(_ value: UInt8) { bytes.append(value) }

  @inlinable
  @inline(__always) mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  @inlinable
  @inline(__always) mutating func varint(_ value: Int) { varint(UInt64(bitPattern: Int64(value))) }

  @inlinable
  @inline(__always) mutating func zigzag(_ value: Int64) {
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  @inlinable
  mutating func raw<S: Sequence<UInt8>>(_ values: S) { bytes.append(contentsOf: values) }
}
