/// Reads what ``_ByteWriter`` writes; every read is bounds-checked and every count is bounded by
/// the bytes that remain, so malformed input fails with an offset instead of trapping or
/// allocating without bound.
@usableFromInline
struct _ByteReader {
  @usableFromInline let bytes: [UInt8]
  @usableFromInline
  private(set) var offset = 0

  @inlinable
  init(_ bytes: [UInt8]) { self.bytes = bytes }

  @inlinable
  var remaining: Int { bytes.count - offset }
  @inlinable
  var isAtEnd: Bool { offset >= bytes.count }

  @inlinable
  func fail(_ reason: String, at position: Int? = nil) -> HistoryCodecError {
    .malformed(offset: position ?? offset, reason: reason)
  }

  @inlinable
  @inline(__always) mutating func byte() throws(HistoryCodecError) -> UInt8 {
    guard offset < bytes.count else { throw fail("unexpected end of data") }
    defer { offset += 1 }
    return bytes[offset]
  }

  @inlinable
  mutating func varint() throws(HistoryCodecError) -> UInt64 {
    let start = offset
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      if shift == 63 && next > 1 { throw fail("varint overflows 64 bits", at: start) }
      result |= UInt64(next & 0x7F) << shift
      if next & 0x80 == 0 { return result }
      shift += 7
      if shift > 63 { throw fail("varint longer than 10 bytes", at: start) }
    }
  }

  /// A non-negative integer no larger than `limit`.
  @inlinable
  mutating func int(max limit: Int, _ what: @autoclosure () -> String) throws(HistoryCodecError) -> Int {
    let start = offset
    let value = try varint()
    guard value <= UInt64(limit) else { throw fail("\(what()) \(value) exceeds \(limit)", at: start) }
    return Int(value)
  }

  /// A count of items that each take at least `minimumBytes`, bounded by what remains.
  @inlinable
  mutating func count(_ what: @autoclosure () -> String, minimumBytes: Int = 1) throws(HistoryCodecError) -> Int {
    let start = offset
    let value = try varint()
    guard value <= UInt64(remaining / max(1, minimumBytes)) else {
      throw fail("\(what()) count \(value) exceeds the remaining \(remaining) bytes", at: start)
    }
    return Int(value)
  }

  @inlinable
  mutating func zigzag() throws(HistoryCodecError) -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  @inlinable
  mutating func take(_ count: Int) throws(HistoryCodecError) -> ArraySlice<UInt8> {
    guard count <= remaining else { throw fail("\(count) bytes requested, \(remaining) remain") }
    defer { offset += count }
    return bytes[offset..<(offset + count)]
  }
}
