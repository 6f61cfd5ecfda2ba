/// The 48-byte header in front of every chunk of zstd output (see Journal/FORMAT.md §3).
struct _ChunkHeader: Equatable {
  static let size = 48
  static let syncMagic: UInt32 = 0x9E3A_C7B5
  static let frameStartFlag: UInt8 = 0x01
  static let frameEndFlag: UInt8 = 0x02
  static let checkpointFlag: UInt8 = 0x04
  static let knownFlags: UInt8 = 0x07
  /// Where the stored CRC32C sits in the header.
  static let checksumOffset = 44

  var flags: UInt8
  var compressedLength: UInt32
  var uncompressedLength: UInt32
  var recordCount: UInt32
  var firstSequence: UInt64
  var firstVersion: UInt64
  var lastVersion: UInt64

  var isFrameStart: Bool { flags & Self.frameStartFlag != 0 }
  var isFrameEnd: Bool { flags & Self.frameEndFlag != 0 }
  var startsWithCheckpoint: Bool { flags & Self.checkpointFlag != 0 }
  var totalSize: Int { Self.size + Int(compressedLength) }

  /// CRC32C over salt, the chunk's own file offset, the first 44 header bytes and the payload.
  /// The salt rejects chunks from another journal or generation; the offset rejects chunks that
  /// were moved or duplicated within the same file.
  static func checksum(salt: UInt64, offset: Int64, header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) -> UInt32 {
    var crc = _CRC32C()
    crc.update(littleEndian: salt)
    crc.update(littleEndian: UInt64(bitPattern: offset))
    crc.update(header)
    crc.update(payload)
    return crc.value
  }

  /// Header bytes followed by `payload`, ready for one write.
  func encode(salt: UInt64, offset: Int64, payload: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.size + payload.count)
    bytes._appendLE(Self.syncMagic)
    bytes.append(flags)
    bytes.append(contentsOf: [0, 0, 0])
    bytes._appendLE(compressedLength)
    bytes._appendLE(uncompressedLength)
    bytes._appendLE(recordCount)
    bytes._appendLE(firstSequence)
    bytes._appendLE(firstVersion)
    bytes._appendLE(lastVersion)
    let crc = bytes.withUnsafeBytes { h in
      payload.withUnsafeBytes { Self.checksum(salt: salt, offset: offset, header: h, payload: $0) }
    }
    bytes._appendLE(crc)
    bytes.append(contentsOf: payload)
    return bytes
  }

  /// Parses and verifies the chunk at `offset` of the whole-file bytes. Returns the reason on
  /// failure; never traps, whatever the bytes.
  ///
  /// - Complexity: O(compressed length) for the checksum.
  static func parse(_ file: UnsafeRawBufferPointer, at offset: Int, salt: UInt64, limits: JournalLimits) -> Result<_ChunkHeader, _ChunkFailure> {
    guard file.count - offset >= size else { return .failure(.init("incomplete chunk header", extendsPastEnd: true)) }
    guard file._loadLE(UInt32.self, at: offset) == syncMagic else { return .failure(.init("missing chunk sync marker")) }
    let header = _ChunkHeader(
      flags: file[offset + 4],
      compressedLength: file._loadLE(UInt32.self, at: offset + 8),
      uncompressedLength: file._loadLE(UInt32.self, at: offset + 12),
      recordCount: file._loadLE(UInt32.self, at: offset + 16),
      firstSequence: file._loadLE(UInt64.self, at: offset + 20),
      firstVersion: file._loadLE(UInt64.self, at: offset + 28),
      lastVersion: file._loadLE(UInt64.self, at: offset + 36))
    guard Int(header.compressedLength) <= limits.maxChunkBytes, Int(header.uncompressedLength) <= limits.maxChunkBytes else {
      return .failure(.init("chunk length exceeds limit \(limits.maxChunkBytes)"))
    }
    guard file.count - offset - size >= Int(header.compressedLength) else {
      return .failure(.init("chunk extends past end of file", extendsPastEnd: true))
    }
    let stored = file._loadLE(UInt32.self, at: offset + checksumOffset)
    let computed = checksum(
      salt: salt, offset: Int64(offset),
      header: UnsafeRawBufferPointer(rebasing: file[offset..<(offset + 44)]),
      payload: UnsafeRawBufferPointer(rebasing: file[(offset + size)..<(offset + header.totalSize)]))
    guard stored == computed else { return .failure(.init("chunk checksum mismatch")) }
    // Checksummed, so these are writer bugs or deliberate forgeries rather than media damage.
    guard header.flags & ~knownFlags == 0 else { return .failure(.init("unknown chunk flags \(header.flags)")) }
    if header.recordCount == 0 {
      guard header.uncompressedLength == 0 else { return .failure(.init("empty chunk with uncompressed bytes")) }
    } else {
      guard UInt64(header.recordCount) * UInt64(_RecordCodec.minimumRecordSize) <= UInt64(header.uncompressedLength),
        header.lastVersion >= header.firstVersion
      else { return .failure(.init("inconsistent record count or version range")) }
    }
    guard !header.startsWithCheckpoint || header.isFrameStart else {
      return .failure(.init("checkpoint flag on a chunk that does not start a frame"))
    }
    return .success(header)
  }
}

/// Why a chunk failed to parse.
struct _ChunkFailure: Error {
  var reason: String
  /// True when the chunk looks like a prefix of a valid chunk cut off by the end of the file.
  var extendsPastEnd: Bool
  init(_ reason: String, extendsPastEnd: Bool = false) {
    self.reason = reason
    self.extendsPastEnd = extendsPastEnd
  }
}
