import ListReplica

/// A version vector as the `dependencies` column holds it: the entry count, then per entry the
/// replica (8 bytes, little-endian) and the sequence, counts and sequences as LEB128 varints.
enum _VectorBytes {
  static func encode(_ vector: ReplicaVersionVector) -> [UInt8] {
    let entries = vector.entries
    var bytes: [UInt8] = []
    bytes.reserveCapacity(1 + entries.count * 12)
    appendVarint(UInt64(entries.count), to: &bytes)
    for entry in entries {
      var raw = entry.replica.rawValue.littleEndian
      withUnsafeBytes(of: &raw) { bytes.append(contentsOf: $0) }
      appendVarint(entry.sequence, to: &bytes)
    }
    return bytes
  }

  /// The vector, or `nil` when the bytes are not one (truncated, overlong, trailing bytes).
  static func decode(_ bytes: some Collection<UInt8>) -> ReplicaVersionVector? {
    var reader = Array(bytes)[...]
    guard let count = readVarint(&reader), count <= UInt64(reader.count / 9) else { return nil }
    var entries: [ReplicaID: UInt64] = [:]
    for _ in 0..<count {
      guard reader.count >= 8 else { return nil }
      var raw: UInt64 = 0
      for (shift, byte) in reader.prefix(8).enumerated() { raw |= UInt64(byte) << (8 * UInt64(shift)) }
      reader = reader.dropFirst(8)
      guard let sequence = readVarint(&reader) else { return nil }
      entries[ReplicaID(rawValue: raw)] = sequence
    }
    return reader.isEmpty ? ReplicaVersionVector(entries) : nil
  }

  static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  static func readVarint(_ reader: inout ArraySlice<UInt8>) -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while let byte = reader.first {
      reader = reader.dropFirst()
      // The tenth byte may carry only the top bit of a UInt64.
      guard shift < 63 || (shift == 63 && byte <= 1) else { return nil }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
    return nil
  }
}
