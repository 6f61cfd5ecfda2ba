// CRC32C (Castagnoli, reflected polynomial 0x82F63B78): the CPU's instruction where it has one,
// else slicing-by-8.
//
// Why: every chunk's bytes are checksummed on write and on open, so the checksum is on the open
// path of a multi-hundred-megabyte journal. The instruction takes 8 bytes at a time; eight table
// lookups per 8 bytes is the portable fallback.
import CChecksum

/// Whether `_CRC32C` uses the CPU's CRC-32C instruction.
let _crc32cInHardware = cchecksum_crc32c_available() != 0

/// The eight 256-entry tables, flattened (`table[k * 256 + byte]`).
let _crc32cTables: [UInt32] = {
  var tables = [UInt32](repeating: 0, count: 8 * 256)
  for n in 0..<256 {
    var crc = UInt32(n)
    for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    tables[n] = crc
  }
  for n in 0..<256 {
    var crc = tables[n]
    for k in 1..<8 {
      crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
      tables[k * 256 + n] = crc
    }
  }
  return tables
}()

/// Incremental CRC32C.
///
/// ```swift
/// var crc = _CRC32C()
/// crc.update([0x31, 0x32, 0x33])
/// let value = crc.value
/// ```
/// - Complexity: O(n) in the bytes fed.
struct _CRC32C {
  private var state: UInt32 = 0xFFFF_FFFF

  init() {}

  /// The finished checksum of everything fed so far.
  var value: UInt32 { state ^ 0xFFFF_FFFF }

  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    if _crc32cInHardware {
      state = cchecksum_crc32c_update(state, base, bytes.count)
      return
    }
    updateWithTables(bytes)
  }

  /// ``update(_:)`` without the CPU's instruction (what CPUs without one compute).
  mutating func updateWithTables(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    var crc = state
    var p = base
    var remaining = bytes.count
    _crc32cTables.withUnsafeBufferPointer { t in
      let t = t.baseAddress!
      // Align to 8 bytes so the wide loads below are aligned.
      while remaining > 0 && (UInt(bitPattern: p) & 7) != 0 {
        crc = t[Int((crc ^ UInt32(p.load(as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
        p += 1
        remaining -= 1
      }
      while remaining >= 8 {
        let word = UInt64(littleEndian: p.load(as: UInt64.self))
        let lo = UInt32(truncatingIfNeeded: word) ^ crc
        let hi = UInt32(truncatingIfNeeded: word >> 32)
        crc = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
          ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
        p += 8
        remaining -= 8
      }
      while remaining > 0 {
        crc = t[Int((crc ^ UInt32(p.load(as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
        p += 1
        remaining -= 1
      }
    }
    state = crc
  }

  mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  mutating func update(littleEndian value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { update($0) }
  }

  /// One-shot checksum.
  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = _CRC32C()
    crc.update(bytes)
    return crc.value
  }
}

/// The journal's CRC-32C for other modules of the package (a replica batch's checksum).
@usableFromInline package func _journalCRC32C(_ bytes: [UInt8]) -> UInt32 {
  bytes.withUnsafeBytes { _CRC32C.checksum($0) }
}
