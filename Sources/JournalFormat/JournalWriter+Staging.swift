extension JournalWriter {
  /// Records of at most this many bytes make a small chunk, which staging puts in the staging
  /// log; the records staged at once stay below ``_stagedBytesLimit``.
  static var _smallChunkBytes: Int { 4096 }
  static var _stagedBytesLimit: Int { 64 * 1024 }

  /// The pending records as a chunk for the staging log, when staging is on and they make a
  /// small chunk that does not complete a batch; nil when they go to the journal. Under the lock.
  func _takeStagedChunk(_ s: inout _WriterState) throws(JournalError) -> _TakenChunk? {
    let batch = options.stagingBatchRecords
    guard batch > 0, s.pendingCount > 0, !s.pendingStartsWithCheckpoint,
      s.pending.count <= Self._smallChunkBytes,
      Int(s.stagedCount) + Int(s.pendingCount) < batch,
      s.staged.count + s.pending.count <= Self._stagedBytesLimit,
      // A chunk that completes the journal's frame goes there, ending it.
      s.frameInputBytes + s.staged.count + s.pending.count < options.frameTargetBytes
    else { return nil }
    // Once its records are in the journal, a log is replaced by a fresh one (an empty file in
    // one rename), whose sequences start after them: the journal is synced through them first,
    // or a crash could take them from both files.
    if s.staging == nil || s.stagingFolded {
      if s.journalDurableSequence < s.journalWrittenSequence, let file = s.file {
        try file.sync(dataOnly: true)
        s.journalDurableSequence = s.journalWrittenSequence
        s.journalDirty = false
      }
      s.staging?.close()
      s.staging = nil
      // Staged chunks are short-lived: the fastest level is enough for them.
      if s.stagingCompressor == nil { s.stagingCompressor = try _ZstdCompressor(level: 1) }
      guard let compressor = s.stagingCompressor else { return nil }
      s.staging = try _StagingLog.create(
        path: Self.stagingPath(for: path), journalSalt: salt, formatMinor: formatMinor, compressor: compressor,
        options: options)
      s.stagingFolded = false
    }
    guard let staging = s.staging else { return nil }
    let header = _ChunkHeader(
      flags: staging.frameOpen ? 0 : _ChunkHeader.frameStartFlag, compressedLength: 0,
      uncompressedLength: UInt32(s.pending.count), recordCount: s.pendingCount, firstSequence: s.pendingFirstSequence,
      firstVersion: s.pendingFirstVersion, lastVersion: s.pendingLastVersion)
    let taken = _TakenChunk(
      file: staging.file, compressor: staging.compressor, salt: staging.salt, staging: staging, records: s.pending,
      header: header, lastSequence: s.nextSequence - 1, offset: staging.endOffset)
    if s.stagedCount == 0 {
      s.staged = s.pending
      s.stagedFirstSequence = s.pendingFirstSequence
      s.stagedFirstVersion = s.pendingFirstVersion
    } else {
      Self._chain(s.pending, firstVersionDelta: s.pendingFirstVersion - s.stagedLastVersion, to: &s.staged)
    }
    s.stagedCount += s.pendingCount
    s.stagedLastVersion = s.pendingLastVersion
    s.pending = []
    s.pendingCount = 0
    return taken
  }

  /// Puts the staged records in front of the pending ones, so the next journal chunk carries
  /// them. Under the lock.
  func _carryStagedIntoPending(_ s: inout _WriterState) {
    guard s.stagedCount > 0 else { return }
    var records = s.staged
    if s.pendingCount > 0 {
      Self._chain(s.pending, firstVersionDelta: s.pendingFirstVersion - s.stagedLastVersion, to: &records)
    } else {
      s.pendingLastVersion = s.stagedLastVersion
    }
    s.pending = records
    s.pendingCount += s.stagedCount
    s.pendingFirstSequence = s.stagedFirstSequence
    s.pendingFirstVersion = s.stagedFirstVersion
    s.staged = []
    s.stagedCount = 0
    s.stagingFolded = true
  }

  /// Appends a chunk's encoded records after others: its first record's version delta, 0 as the
  /// first of its chunk (one byte after the kind), becomes its distance from the previous record.
  static func _chain(_ records: [UInt8], firstVersionDelta: UInt64, to buffer: inout [UInt8]) {
    buffer.append(records[0])
    buffer._appendVarint(firstVersionDelta)
    buffer.append(contentsOf: records[2...])
  }

  /// At open: carries what a crash left in the staging log into the journal as one chunk, synced,
  /// then removes the log. Records the journal already holds (the log was carried but not yet
  /// replaced) are skipped; a log that does not continue the journal exactly (another journal's,
  /// or written after records a crash took from the journal, none of which was reported durable)
  /// is dropped.
  func _carryStagedRecords() throws(JournalError) {
    let fs = options.fileSystem
    let stagingPath = Self.stagingPath(for: path)
    guard fs.exists(stagingPath) else { return }
    let next = nextSequence
    let records = _StagingLog.records(at: stagingPath, journalSalt: salt, options: options).drop { $0.sequence < next }
    if let first = records.first, first.sequence == next {
      try state.withLock { (s) throws(JournalError) in
        var previous = s.lastVersion
        for record in records {
          guard record.kind != .checkpoint, previous.map({ record.version >= $0 }) ?? true else { return }
          previous = record.version
        }
        for record in records { _ = try _stage(record, &s) }
        try _emitChunk(&s, forceFrameEnd: false, toJournal: true)
        _ = try _syncFile(&s)
      }
    }
    try fs.remove(stagingPath)
  }
}
