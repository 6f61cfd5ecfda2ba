/// Appends the wire's primitive fields: LEB128 varints, little-endian words, length-prefixed bytes.
struct _WireWriter {
  var bytes: [UInt8] = []

  init(capacity: Int = 32) { bytes.reserveCapacity(capacity) }

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func varint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  mutating func word(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func lengthPrefixed(_ value: [UInt8]) {
    varint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }
}
