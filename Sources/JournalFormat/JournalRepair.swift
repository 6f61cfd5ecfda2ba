/// Explicit repair of a journal with mid-file corruption.
///
/// Keeps every record that can still be read in order: the valid prefix (every chunk before the
/// first damaged one) and, after each damaged stretch, the intact chunks from the next frame
/// that starts with a checkpoint, each such stretch preceded by a gap record (format 1.2, §4.1 of
/// `Journal/FORMAT.md`) that says which versions were lost. Saves the damaged original aside as
/// `<path>.damaged-<timestamp>` (never deletes it) and atomically replaces `path`.
///
/// ```swift
/// do { _ = try JournalWriter.open(at: path) } catch .corrupted {
///   let report = try JournalRepair.repair(at: path)
///   print("kept \(report.keptBytes) bytes; original saved at \(report.damagedCopyPath ?? "-")")
/// }
/// ```
public enum JournalRepair {
  /// One readable stretch of the original: records from `startFrame` of `scan` up to (not
  /// including) `endSequence`, ending at byte `end`.
  struct _Stretch {
    var scan: _Scanner.Result
    var startFrame: Int
    var endSequence: UInt64
    var end: Int
    var lastVersion: UInt64?
    /// Where a chunk that does not decode starts (nil: the stretch ends at its scan's end).
    var damage: Int64? = nil
    /// Byte offset of the first kept chunk (the header's end for an empty prefix).
    var start: Int64 { startFrame < scan.frames.count ? scan.frames[startFrame].offset : Int64(_FileHeader.size) }
    var recordCount: UInt64 {
      startFrame < scan.frames.count ? endSequence - scan.frames[startFrame].firstSequence : 0
    }
  }

  /// Repairs `path` in place (atomically), refusing while a writer holds the lock.
  ///
  /// A journal with no damage is left as it is (a torn tail is none: the next writer drops it,
  /// readers ignore it; the report then has no damaged copy). When nothing after the first damage can be
  /// kept, the repaired journal is the valid prefix, byte for byte; otherwise the kept records
  /// are rewritten into a new journal (new salt, same format minor and creation time, the
  /// prefix's sequence numbers), a gap record before each later stretch.
  ///
  /// - Throws: `JournalError.corrupted` naming the first damage when nothing at all can be kept
  ///   (no complete record before it and no intact checkpoint after it); `.locked`; I/O errors.
  /// - Complexity: O(file size): verifies checksums and decodes every chunk to find the damage,
  ///   then copies (or rewrites) what it keeps.
  public static func repair(at path: String, options: JournalOptions = JournalOptions()) throws(JournalError) -> Report {
    let fs = options.fileSystem
    let file = try fs.open(path, mode: .readWrite)
    defer { file.close() }
    guard try file.tryLockExclusive() else { throw .locked(path: path) }
    let size = try file.size()
    guard size >= Int64(_FileHeader.size) else { throw .notAJournal(path: path) }
    let bytes = try file.mapReadOnly(length: Int(size))
    let (header, scans) = try bytes.withBytes { (raw) throws(JournalError) in
      let header = try _FileHeader.decode(raw, path: path)
      return (header, _segmentScans(raw, header: header, limits: options.limits))
    }
    let reader = { (scan: _Scanner.Result) in
      JournalReader(path: path, header: header, scan: scan, bytes: bytes, limits: options.limits)
    }
    // Checksums can pass while decoding fails (a writer bug or a forged file): find that too.
    var stretches: [_Stretch] = []
    var firstDamage: Int64? = scans[0].corruption.flatMap { error in
      if case .corrupted(let offset, _, _) = error { offset } else { nil }
    }
    for (index, scan) in scans.enumerated() {
      // After damage, decoding can start only at a frame that starts with a checkpoint.
      var from = index == 0 ? 0 : scan.frames.firstIndex(where: \.startsWithCheckpoint)
      if index == 0 && scan.frames.isEmpty {
        stretches.append(_Stretch(scan: scan, startFrame: 0, endSequence: scan.nextSequence ?? 1, end: scan.validEnd, lastVersion: nil))
        continue
      }
      while let startFrame = from {
        let stretch = try decodableStretch(
          of: scan, from: startFrame, reader: reader(scan), bytes: bytes, header: header, limits: options.limits)
        if (index == 0 && stretches.isEmpty) || stretch.recordCount > 0 { stretches.append(stretch) }
        guard let damage = stretch.damage else { break }
        // A chunk whose checksum passes but which does not decode: damage too, read past it.
        firstDamage = min(firstDamage ?? damage, damage)
        from = scan.frames.indices.first { scan.frames[$0].offset > damage && scan.frames[$0].startsWithCheckpoint }
      }
    }
    let prefix = stretches.first!
    guard let damage = firstDamage else {
      return Report(
        keptBytes: size, droppedBytes: 0, damagedCopyPath: nil, recordCount: prefix.scan.frames.reduce(0) { $0 + $1.recordCount },
        lastGoodVersion: prefix.scan.lastVersion, keptRanges: [Int64(_FileHeader.size)..<Int64(prefix.end)])
    }
    let later = Array(stretches.dropFirst())
    guard prefix.recordCount > 0 || !later.isEmpty else {
      throw .corrupted(
        offset: damage, lastGoodVersion: nil,
        reason: "nothing can be kept: no complete record before the damage and no intact checkpoint after it")
    }

    let stamp = _nowNanoseconds()
    let damaged = path + ".damaged-\(stamp)"
    let all = try file.read(at: 0, count: Int(size))
    let copy = try fs.open(damaged, mode: .createNew)
    defer { copy.close() }
    try copy.write(all, at: 0)
    try copy.sync(dataOnly: false)
    let temporary = path + ".repair-\(stamp)"
    var report = Report(
      keptBytes: 0, droppedBytes: 0, damagedCopyPath: damaged, recordCount: prefix.recordCount,
      lastGoodVersion: prefix.lastVersion)
    if later.isEmpty {
      // Only the prefix: kept byte for byte, as a writer that truncated the damage would.
      let fresh = try fs.open(temporary, mode: .createNew)
      defer { fresh.close() }
      try fresh.write(Array(all[0..<prefix.end]), at: 0)
      try fresh.sync(dataOnly: false)
    } else {
      try rewrite(
        prefix: prefix, later: later, into: temporary, header: header, reader: reader, options: options, report: &report)
    }
    try fs.rename(temporary, to: path)
    try fs.syncDirectory(containing: path)
    report.keptRanges = stretches.filter { $0.recordCount > 0 }.map { $0.start..<Int64($0.end) }
    report.keptBytes = Int64(_FileHeader.size) + report.keptRanges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
    report.droppedBytes = size - report.keptBytes
    return report
  }

  /// The scans of the readable runs (see ``JournalReader/openSegments(at:limits:fileSystem:)``).
  static func _segmentScans(_ raw: UnsafeRawBufferPointer, header: _FileHeader, limits: JournalLimits) -> [_Scanner.Result] {
    JournalReader._segmentScans(raw, salt: header.salt, limits: limits).0
  }

  /// The records of `scan` from `startFrame` on that decode, up to the first chunk that does not.
  static func decodableStretch(
    of scan: _Scanner.Result, from startFrame: Int, reader: JournalReader, bytes: JournalMappedBytes, header: _FileHeader,
    limits: JournalLimits
  ) throws(JournalError) -> _Stretch {
    var iterator = reader.makeIterator(fromFrame: startFrame)
    do throws(JournalError) {
      try iterator.forEachRemaining { (_, _, _, _) throws(JournalError) in }
      return _Stretch(
        scan: scan, startFrame: startFrame, endSequence: scan.nextSequence ?? scan.frames[startFrame].firstSequence,
        end: scan.validEnd, lastVersion: scan.lastVersion)
    } catch {
      guard case .corrupted(let offset, _, _) = error else { throw error }
      // Records of the damaged chunk may have been read before the failure was noticed: the
      // stretch ends where the chunks before the damage end.
      let start = Int(scan.frames[startFrame].offset)
      let cut = bytes.withBytes {
        _Scanner.scan(UnsafeRawBufferPointer(rebasing: $0[0..<Int(offset)]), salt: header.salt, limits: limits, from: start)
      }
      return _Stretch(
        scan: scan, startFrame: startFrame, endSequence: cut.nextSequence ?? scan.frames[startFrame].firstSequence,
        end: cut.frames.isEmpty ? start : cut.validEnd, lastVersion: cut.lastVersion, damage: offset)
    }
  }

  /// Writes the prefix's records, then for each later stretch a gap record and its records,
  /// into a new journal at `temporary`.
  static func rewrite(
    prefix: _Stretch, later: [_Stretch], into temporary: String, header: _FileHeader,
    reader: (_Scanner.Result) -> JournalReader, options: JournalOptions, report: inout Report
  ) throws(JournalError) {
    var writeOptions = options
    // The records keep their encodings: the rewrite announces the original's minor and date.
    writeOptions.formatMinor = header.minor
    writeOptions.fixedCreationTimeNanoseconds = header.createdAtNanoseconds
    writeOptions.durability = .grouped(maxDelayMilliseconds: 3_600_000, maxBytes: options.frameTargetBytes)
    writeOptions.onDurable = nil
    let firstSequence = prefix.scan.frames.first?.firstSequence ?? prefix.scan.nextSequence ?? 1
    let writer = try JournalWriter._create(at: temporary, options: writeOptions, firstSequence: firstSequence)
    do throws(JournalError) {
      var last = prefix.lastVersion
      var count: UInt64 = 0
      func copy(_ stretch: _Stretch) throws(JournalError) {
        guard stretch.startFrame < stretch.scan.frames.count else { return }
        var iterator = reader(stretch.scan).makeIterator(fromFrame: stretch.startFrame)
        // Counted, not read until a later sequence: the chunk after the stretch may not decode.
        var remaining = stretch.recordCount
        while remaining > 0, let record = try iterator.next() {
          try writer.append(JournalRecord(kind: record.kind, version: record.version, payload: record.payload))
          count += 1
          remaining -= 1
        }
      }
      try copy(prefix)
      for stretch in later {
        let checkpoint = stretch.scan.frames[stretch.startFrame]
        // Versions never decrease along a file, so the checkpoint's is at least the last kept.
        let kept = last ?? 0
        let newest = max(checkpoint.firstVersion, kept)
        let lost = newest - kept
        var payload: [UInt8] = []
        payload._appendVarint(lost)  // the history codec's gap payload: the lost version count
        try writer.append(JournalRecord(kind: .gap, version: newest, payload: payload))
        count += 1
        report.resumptions.append(
          Resumption(lostVersions: lost > 0 ? (kept + 1)...newest : nil, offset: checkpoint.offset, checkpointVersion: newest))
        try copy(stretch)
        last = stretch.lastVersion ?? newest
      }
      try writer.close()
      report.recordCount = count
      report.lastGoodVersion = last
    } catch {
      try? writer.close()
      try? options.fileSystem.remove(temporary)
      throw error
    }
  }
}
