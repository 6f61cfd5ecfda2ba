/// The fixed 64-byte file header (see Journal/FORMAT.md §2).
///
/// Its layout — magic, versions, and the CRC in the last four bytes — is frozen across all major
/// versions, so a reader can tell "corrupted" from "newer format" before trusting anything else.
struct _FileHeader: Equatable {
  static let size = 64
  static let magic: [UInt8] = [0x89, 0x4C, 0x4A, 0x52, 0x4E, 0x4C, 0x0D, 0x0A]  // \x89 L J R N L \r \n
  static let currentMajor: UInt16 = 1
  static let currentMinor: UInt16 = 1

  var major: UInt16 = _FileHeader.currentMajor
  var minor: UInt16 = _FileHeader.currentMinor
  var salt: UInt64
  var createdAtNanoseconds: Int64
  var flags: UInt32 = 0
  /// A staging log's journal: that journal's salt (bytes 36..<44); zero in a journal.
  var linkedSalt: UInt64 = 0

  func encode() -> [UInt8] {
    var bytes = _FileHeader.magic
    bytes.reserveCapacity(_FileHeader.size)
    bytes._appendLE(major)
    bytes._appendLE(minor)
    bytes._appendLE(UInt32(_FileHeader.size))
    bytes._appendLE(salt)
    bytes._appendLE(createdAtNanoseconds)
    bytes._appendLE(flags)
    bytes._appendLE(linkedSalt)
    bytes.append(contentsOf: repeatElement(0, count: 60 - bytes.count))
    let crc = bytes.withUnsafeBytes { _CRC32C.checksum($0) }
    bytes._appendLE(crc)
    return bytes
  }

  /// Validates and decodes; errors name offset 0 for a damaged header.
  static func decode(_ bytes: UnsafeRawBufferPointer, path: String) throws(JournalError) -> _FileHeader {
    guard bytes.count >= size, bytes.prefix(8).elementsEqual(magic) else { throw .notAJournal(path: path) }
    let stored = bytes._loadLE(UInt32.self, at: 60)
    guard _CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<60])) == stored else {
      throw .corrupted(offset: 0, lastGoodVersion: nil, reason: "file header checksum mismatch")
    }
    let major = bytes._loadLE(UInt16.self, at: 8)
    let minor = bytes._loadLE(UInt16.self, at: 10)
    guard major <= currentMajor else { throw .newerFormat(major: major, minor: minor, supportedMajor: currentMajor) }
    guard major == currentMajor, bytes._loadLE(UInt32.self, at: 12) == UInt32(size) else {
      throw .corrupted(offset: 8, lastGoodVersion: nil, reason: "unsupported format \(major).\(minor) or header length")
    }
    return _FileHeader(
      major: major, minor: minor, salt: bytes._loadLE(UInt64.self, at: 16),
      createdAtNanoseconds: bytes._loadLE(Int64.self, at: 24), flags: bytes._loadLE(UInt32.self, at: 32),
      linkedSalt: bytes._loadLE(UInt64.self, at: 36))
  }
}
