extension JournalReader {
  /// The readable runs of chunks of a journal damaged in its middle: the valid prefix (what
  /// `open(at:tolerateCorruption: true)` exposes), then, after each damaged stretch, a reader
  /// from the next intact chunk that starts a zstd frame up to the next damage or the end.
  ///
  /// Each later reader's records are complete and verified, but their history payloads may
  /// refer to codec tables built before the damage: a history reader can decode them only from
  /// a frame that starts with a checkpoint (``JournalFrameInfo/startsWithCheckpoint``). An
  /// undamaged journal gives one reader, the same as `open(at:)`.
  ///
  /// ```swift
  /// let segments = try JournalReader.openSegments(at: path)
  /// for segment in segments.readers.dropFirst() { print(segment.frames.first?.offset ?? 0) }
  /// ```
  /// - Throws: what `open(at:)` throws for the file itself (missing, not a journal, a damaged
  ///   header, a newer format); damage after the header is never thrown.
  /// - Complexity: O(file size) checksum work, plus a byte-by-byte search of each damaged stretch.
  public static func openSegments(
    at path: String, limits: JournalLimits = JournalLimits(), fileSystem: any JournalFileSystem = POSIXFileSystem()
  ) throws(JournalError) -> JournalSegments {
    let file = try fileSystem.open(path, mode: .read)
    defer { file.close() }
    let size = try file.size()
    guard size >= Int64(_FileHeader.size) else { throw .notAJournal(path: path) }
    guard size <= Int64(Int.max / 2) else {
      throw .tooLarge(what: "journal file", size: size, limit: Int64(Int.max / 2), offset: nil)
    }
    let bytes = try file.mapReadOnly(length: Int(size))
    let (header, scans, newest) = try bytes.withBytes { (raw) throws(JournalError) in
      let header = try _FileHeader.decode(raw, path: path)
      let (scans, newest) = _segmentScans(raw, salt: header.salt, limits: limits)
      return (header, scans, newest)
    }
    return JournalSegments(
      readers: scans.map { JournalReader(path: path, header: header, scan: $0, bytes: bytes, limits: limits) },
      newestVersion: newest)
  }

  /// The scans of ``openSegments(at:limits:fileSystem:)``: the valid prefix, then one per intact
  /// run from the next chunk after each damaged stretch that starts a frame; and the newest
  /// version any intact chunk names.
  ///
  /// - Complexity: O(file size).
  static func _segmentScans(_ raw: UnsafeRawBufferPointer, salt: UInt64, limits: JournalLimits) -> ([_Scanner.Result], UInt64?) {
    var scans = [_Scanner.scan(raw, salt: salt, limits: limits)]
    var newest = scans[0].lastVersion
    while case .corrupted(let offset, _, _)? = scans[scans.count - 1].corruption {
      // The next intact chunk that starts a frame: a continuation chunk cannot be decoded
      // without the frame's earlier, damaged chunks.
      var search = Int(offset)
      var start: Int?
      while let candidate = _Scanner.findValidChunk(raw, after: search, salt: salt, limits: limits) {
        guard case .success(let chunk) = _ChunkHeader.parse(raw, at: candidate, salt: salt, limits: limits)
        else { break }
        if chunk.isFrameStart {
          start = candidate
          break
        }
        // An empty chunk (a frame's end) names the writer's newest version too.
        newest = max(newest ?? 0, chunk.lastVersion)
        search = candidate
      }
      guard let start else { break }
      let scan = _Scanner.scan(raw, salt: salt, limits: limits, from: start)
      if let last = scan.lastVersion { newest = max(newest ?? 0, last) }
      scans.append(scan)
    }
    return (scans, newest)
  }
}
