// Little-endian and varint helpers shared by the header, chunk and record codecs.

extension Array where Element == UInt8 {
  mutating func _appendLE<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  /// LEB128 unsigned varint.
  mutating func _appendVarint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    append(UInt8(v))
  }
}

extension UnsafeRawBufferPointer {
  /// Reads a little-endian integer at `offset`; the caller has bounds-checked.
  @inline(__always)
  func _loadLE<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
    T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}

/// A bounds-checked forward cursor over untrusted bytes: every read reports failure instead of
/// trapping, so hostile input can never crash the parser.
struct _ByteCursor {
  let bytes: UnsafeRawBufferPointer
  var position: Int

  init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
    self.bytes = bytes
    self.position = position
  }

  var remaining: Int { bytes.count - position }

  @inline(__always)
  mutating func readByte() -> UInt8? {
    guard position < bytes.count else { return nil }
    defer { position += 1 }
    return bytes[position]
  }

  /// LEB128 varint, at most 10 bytes; rejects overlong encodings that overflow 64 bits.
  ///
  /// Inlined: a record's header is two varints, read twice per record by a journal replay.
  @inline(__always)
  mutating func readVarint() -> UInt64? {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while shift < 64 {
      guard let byte = readByte() else { return nil }
      if shift == 63 && byte > 1 { return nil }
      result |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
    return nil
  }
}
