/// Walks a journal's chunk headers (verifying every chunk's CRC but decompressing nothing),
/// builds the frame index and classifies the end of the file (see Journal/FORMAT.md §6).
struct _Scanner {
  struct Result {
    var frames: [JournalFrameInfo] = []
    var validEnd: Int = _FileHeader.size
    var tornTailReason: String?
    var corruption: JournalError?
    var nextSequence: UInt64?
    var lastVersion: UInt64?
    /// Offset and stored checksum of the last chunk accepted (for `JournalPrefix`).
    var lastChunk: (offset: Int, checksum: UInt32)?
    /// Whether the last frame is unterminated.
    var lastFrameOpen: Bool { frames.last.map { !$0.isTerminated } ?? false }
  }

  /// - Complexity: O(file size).
  static func scan(_ file: UnsafeRawBufferPointer, salt: UInt64, limits: JournalLimits, from start: Int = _FileHeader.size) -> Result {
    var result = Result()
    result.validEnd = start
    var offset = start
    while offset < file.count {
      switch _ChunkHeader.parse(file, at: offset, salt: salt, limits: limits) {
      case .success(let header):
        if let reason = accept(header, at: offset, into: &result, limits: limits) {
          result.corruption = .corrupted(offset: Int64(offset), lastGoodVersion: result.lastVersion, reason: reason)
          return result
        }
        result.lastChunk = (offset, file._loadLE(UInt32.self, at: offset + _ChunkHeader.checksumOffset))
        offset += header.totalSize
        result.validEnd = offset
      case .failure(let failure):
        // Torn tail only if nothing valid follows; any valid chunk later means real damage.
        if let later = findValidChunk(file, after: offset, salt: salt, limits: limits) {
          result.corruption = .corrupted(
            offset: Int64(offset), lastGoodVersion: result.lastVersion,
            reason: "\(failure.reason); a valid chunk follows at byte \(later)")
        } else {
          result.tornTailReason = failure.reason
        }
        return result
      }
    }
    return result
  }

  /// Applies the sequencing rules to a checksummed chunk; returns a reason if it breaks them.
  private static func accept(_ h: _ChunkHeader, at offset: Int, into r: inout Result, limits: JournalLimits) -> String? {
    if let next = r.nextSequence, h.firstSequence != next {
      return "chunk starts at sequence \(h.firstSequence), expected \(next)"
    }
    if let last = r.lastVersion, h.recordCount > 0, h.firstVersion < last {
      return "chunk version \(h.firstVersion) precedes previous version \(last)"
    }
    let (nextSequence, overflow) = h.firstSequence.addingReportingOverflow(UInt64(h.recordCount))
    guard !overflow else { return "sequence overflow" }
    if h.isFrameStart {
      r.frames.append(JournalFrameInfo(
        offset: Int64(offset), byteCount: 0, chunkCount: 0, uncompressedBytes: 0,
        firstSequence: h.firstSequence, recordCount: 0, firstVersion: h.firstVersion,
        lastVersion: h.lastVersion, startsWithCheckpoint: h.startsWithCheckpoint, isTerminated: false))
    } else if r.frames.isEmpty || r.frames[r.frames.count - 1].isTerminated {
      return "chunk continues a zstd frame that is not open"
    }
    var frame = r.frames[r.frames.count - 1]
    if frame.recordCount == 0 && h.recordCount > 0 { frame.firstVersion = h.firstVersion }
    frame.byteCount += Int64(h.totalSize)
    frame.chunkCount += 1
    frame.uncompressedBytes += Int64(h.uncompressedLength)
    guard frame.uncompressedBytes <= Int64(limits.maxFrameBytes) else {
      return "frame exceeds the \(limits.maxFrameBytes)-byte decompression cap"
    }
    frame.recordCount += UInt64(h.recordCount)
    if h.recordCount > 0 {
      frame.lastVersion = h.lastVersion
      r.lastVersion = h.lastVersion
    }
    frame.isTerminated = h.isFrameEnd
    r.frames[r.frames.count - 1] = frame
    r.nextSequence = nextSequence
    return nil
  }

  /// The offset of the first checksummed chunk after `offset`, if any.
  static func findValidChunk(_ file: UnsafeRawBufferPointer, after offset: Int, salt: UInt64, limits: JournalLimits) -> Int? {
    let firstMagicByte = UInt8(truncatingIfNeeded: _ChunkHeader.syncMagic)
    var candidate = offset + 1
    while candidate + _ChunkHeader.size <= file.count {
      if file[candidate] == firstMagicByte,
        case .success = _ChunkHeader.parse(file, at: candidate, salt: salt, limits: limits)
      {
        return candidate
      }
      candidate += 1
    }
    return nil
  }
}
