/// Reads the wire's primitive fields; every failure is a ``SyncMessageError`` naming the byte
/// offset where the field starts, never a trap.
struct _WireReader {
  let bytes: [UInt8]
  private(set) var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { offset == bytes.count }
  var remaining: Int { bytes.count - offset }

  func fail(_ reason: String, at start: Int? = nil) -> SyncMessageError {
    .malformed(offset: start ?? offset, reason: reason)
  }

  mutating func byte(_ field: String) throws(SyncMessageError) -> UInt8 {
    guard offset < bytes.count else { throw fail("\(field): the frame ends") }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func varint(_ field: String) throws(SyncMessageError) -> UInt64 {
    let start = offset
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < bytes.count else { throw fail("\(field): the frame ends inside a varint", at: start) }
      let byte = bytes[offset]
      offset += 1
      // The tenth byte may carry only the top bit of a 64-bit value.
      guard shift < 63 || (shift == 63 && byte <= 1) else { throw fail("\(field): varint overflows 64 bits", at: start) }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
  }

  mutating func count(_ field: String, minimumBytesEach: Int) throws(SyncMessageError) -> Int {
    let start = offset
    let value = try varint(field)
    // Bounding by what is left keeps hostile counts from reserving huge arrays.
    guard value <= UInt64(remaining / max(minimumBytesEach, 1)) else {
      throw fail("\(field): count \(value) exceeds the frame", at: start)
    }
    return Int(value)
  }

  mutating func word(_ field: String) throws(SyncMessageError) -> UInt64 {
    guard remaining >= 8 else { throw fail("\(field): the frame ends inside an 8-byte word") }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
    offset += 8
    return value
  }

  mutating func lengthPrefixed(_ field: String) throws(SyncMessageError) -> [UInt8] {
    let start = offset
    let length = try varint(field)
    guard length <= UInt64(remaining) else { throw fail("\(field): length \(length) exceeds the frame", at: start) }
    defer { offset += Int(length) }
    return Array(bytes[offset..<offset + Int(length)])
  }

  mutating func rest() -> [UInt8] {
    defer { offset = bytes.count }
    return Array(bytes[offset...])
  }
}
