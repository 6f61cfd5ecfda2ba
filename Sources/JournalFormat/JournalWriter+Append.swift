import Dispatch

extension JournalWriter {
  /// Appends one record (its `sequence` is assigned here) according to the durability mode.
  ///
  /// A checkpoint record always starts a new zstd frame (the current one is ended first), so
  /// time travel can begin decoding at it.
  ///
  /// ```swift
  /// let receipt = try writer.append(JournalRecord(kind: .commit, version: 7, payload: bytes))
  /// ```
  /// - Complexity: O(payload) plus, per durability mode, a write and an `fdatasync`.
  @discardableResult
  public func append(_ record: JournalRecord) throws(JournalError) -> AppendReceipt {
    let (receipt, durable) = try _whenNoChunkInFlight(if: record.kind == .checkpoint) { (s) throws(JournalError) in
      try _append(record, &s)
    }
    if let durable { options.onDurable?(durable) }
    return receipt
  }

  /// Runs `body` under the state lock — if `needed`, once no chunk taken by the sync thread is
  /// being written (see `_groupSync`). A checkpoint first writes the current chunk, ending its
  /// frame, which must follow that one. The wait is one timed chunk's compression and `pwrite`,
  /// never a sync: appends still never wait for the disk.
  ///
  /// It blocks on `chunkWriting`, which the sync thread enters with the lock held as it sets
  /// `chunkInFlight` and leaves as it clears it (`_writeInFlight`, written or not): seen set
  /// under the lock, the flag is cleared by a `leave()` still to come, so the wait cannot miss
  /// it; if the chunk was finished meanwhile, `wait()` returns at once.
  private func _whenNoChunkInFlight<R>(if needed: Bool, _ body: (inout _WriterState) throws(JournalError) -> R)
    throws(JournalError) -> R
  {
    var waited = false
    while true {
      let result = try state.withLock { (s) throws(JournalError) -> R? in
        if waited { s.waitingForChunkInFlight -= 1 }
        guard needed && s.chunkInFlight else { return try body(&s) }
        s.waitingForChunkInFlight += 1
        return nil
      }
      if let result { return result }
      chunkWriting.wait()
      waited = true
    }
  }

  /// Appends several records as one chunk (a checkpoint among them still starts its own frame),
  /// then applies the durability mode once: one zstd flush and one `pwrite` for the whole batch
  /// where `append(_:)` would pay them per record. Either every record is accepted or none is
  /// (they are checked before any is added); returns the receipt of the last one (the others
  /// have the sequences just before it), or nil for an empty batch.
  ///
  /// ```swift
  /// let last = try writer.append(contentsOf: records)   // relaxed: all in the page cache now
  /// ```
  /// - Complexity: O(total payload) plus, per durability mode, one write and one `fdatasync`.
  @discardableResult
  public func append(contentsOf records: some Collection<JournalRecord>) throws(JournalError) -> AppendReceipt? {
    guard !records.isEmpty else { return nil }
    let hasCheckpoint = records.contains { $0.kind == .checkpoint }
    let (receipt, durable) = try _whenNoChunkInFlight(if: hasCheckpoint) { (s) throws(JournalError) in
      try _append(contentsOf: records, &s)
    }
    if let durable { options.onDurable?(durable) }
    return receipt
  }

  private func _append(contentsOf records: some Collection<JournalRecord>, _ s: inout _WriterState) throws(JournalError)
    -> (AppendReceipt?, UInt64?)
  {
    try _checkOpen(s)
    var previous = s.lastVersion
    for record in records {
      try _validate(record, after: previous)
      previous = record.version
    }
    var receipt: AppendReceipt?
    for record in records { receipt = try _stage(record, &s) }
    let durable = try _applyDurability(&s)
    guard let last = receipt else { return (nil, durable) }
    return (AppendReceipt(sequence: last.sequence, version: last.version, isDurable: s.durableSequence >= last.sequence), durable)
  }

  /// Appends a checkpoint record (full state at `version`), starting a new zstd frame.
  ///
  /// - Complexity: as `append(_:)`.
  @discardableResult
  public func appendCheckpoint(version: UInt64, payload: [UInt8]) throws(JournalError) -> AppendReceipt {
    try append(JournalRecord(kind: .checkpoint, version: version, payload: payload))
  }

  /// Writes anything pending and makes everything written durable.
  ///
  /// The `fdatasync` runs without blocking appends (they continue into the page cache and are
  /// covered by a later sync).
  ///
  /// - Complexity: one write and one `fdatasync`.
  public func sync() throws(JournalError) {
    let durable = try syncing.withLock { _ throws(JournalError) -> UInt64? in
      let pending = try state.withLock { (s) throws(JournalError) -> _UnsyncedWrites? in
        try _checkOpen(s)
        try _emitChunk(&s, forceFrameEnd: false)
        return _unsyncedWrites(&s)
      }
      guard let pending else { return nil }
      return try _syncOutsideLock(pending)
    }
    if let durable { options.onDurable?(durable) }
  }

  /// Ends the current frame, makes everything durable (`fsync`) and releases the lock.
  /// Idempotent; throws if the final write or sync fails (the writer is closed regardless).
  ///
  /// - Complexity: one write and one `fsync`.
  public func close() throws(JournalError) {
    // Waits for a sync running outside the state lock, so the file is not closed under it.
    let durable = try syncing.withLock { _ throws(JournalError) -> UInt64? in try _close() }
    if let durable { options.onDurable?(durable) }
  }

  private func _close() throws(JournalError) -> UInt64? {
    try state.withLock { (s) throws(JournalError) -> UInt64? in
      guard s.closedReason == nil, let file = s.file else { return nil }
      defer {
        file.close()
        s.file = nil
        if s.closedReason == nil { s.closedReason = "closed" }
      }
      try _emitChunk(&s, forceFrameEnd: true)
      do throws(JournalError) { try file.sync(dataOnly: false) } catch {
        _poison(&s, error)
        throw error
      }
      s.durableSequence = s.writtenSequence
      // The journal now holds every staged record (a leftover log would be skipped at open).
      if let staging = s.staging {
        staging.close()
        s.staging = nil
        try? options.fileSystem.remove(staging.path)
      }
      return s.durableSequence
    }
  }

  // MARK: - Under the lock

  private func _checkOpen(_ s: borrowing _WriterState) throws(JournalError) {
    if let reason = s.closedReason { throw .writerClosed(cause: reason) }
  }

  private func _append(_ record: JournalRecord, _ s: inout _WriterState) throws(JournalError) -> (AppendReceipt, UInt64?) {
    try _checkOpen(s)
    try _validate(record, after: s.lastVersion)
    let staged = try _stage(record, &s)
    let durable = try _applyDurability(&s)
    let receipt = AppendReceipt(sequence: staged.sequence, version: record.version, isDurable: s.durableSequence >= staged.sequence)
    return (receipt, durable)
  }

  private func _validate(_ record: JournalRecord, after lastVersion: UInt64?) throws(JournalError) {
    try checkPayloadFits(record.payload.count)
    guard record.kind.rawValue != 0 else { throw .invalidArgument("record kind 0 is reserved") }
    if let last = lastVersion, record.version < last { throw .versionOutOfOrder(version: record.version, previous: last) }
  }

  /// Adds a validated record to the pending chunk (a checkpoint first ends the current frame);
  /// the receipt's `isDurable` is not yet meaningful.
  func _stage(_ record: JournalRecord, _ s: inout _WriterState) throws(JournalError) -> AppendReceipt {
    if record.kind == .checkpoint && (s.frameOpen || s.pendingCount > 0 || s.stagedCount > 0) {
      try _emitChunk(&s, forceFrameEnd: true)
    }
    if s.pendingCount == 0 {
      s.pendingFirstSequence = s.nextSequence
      s.pendingFirstVersion = record.version
      s.pendingStartsWithCheckpoint = record.kind == .checkpoint && !s.frameOpen
    }
    _RecordCodec.append(
      kind: record.kind.rawValue, versionDelta: s.pendingCount == 0 ? 0 : record.version - s.pendingLastVersion,
      payload: record.payload, to: &s.pending)
    s.pendingCount += 1
    s.pendingLastVersion = record.version
    let sequence = s.nextSequence
    s.nextSequence += 1
    s.lastVersion = record.version
    return AppendReceipt(sequence: sequence, version: record.version, isDurable: false)
  }

  /// What the durability mode does after records were staged; returns a newly durable sequence.
  private func _applyDurability(_ s: inout _WriterState) throws(JournalError) -> UInt64? {
    switch options.durability {
    case .strict:
      try _emitChunk(&s, forceFrameEnd: false)
      return try _syncFile(&s)
    case .relaxed:
      try _emitChunk(&s, forceFrameEnd: false)
      return nil
    case .grouped(let maxDelay, let maxBytes):
      // The appending thread never waits for a sync: a full group is written here (bounding
      // the memory held) and its sync, like the timed one, runs on another thread. While that
      // thread is writing a chunk it took, the group stays pending for it (it is asked for one
      // more sync below): what is appended meanwhile, during one chunk's compression, is all
      // the group grows by.
      if s.pending.count >= maxBytes || s.pendingCount >= UInt32.max / 2 {
        if !s.chunkInFlight { try _emitChunk(&s, forceFrameEnd: false) }
        if !s.syncRequested {
          s.syncRequested = true
          DispatchQueue.global().async { [weak self] in self?._groupSync(timer: false) }
        }
      } else if !s.timerScheduled {
        s.timerScheduled = true
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(max(0, maxDelay))) { [weak self] in
          self?._groupSync(timer: true)
        }
      }
      return nil
    }
  }

  /// Grouped durability's shared sync (after the delay, or after a full group): writes what is
  /// pending, then `fdatasync`s outside the state lock so appends continue meanwhile. A failure
  /// poisons the writer; the next append or sync reports it.
  ///
  /// The chunk is compressed and written outside the state lock too: it is taken out of the
  /// pending records under the lock, and appends continue into an empty buffer meanwhile (with
  /// the lock held, the appending thread waited for every compression — most chunks are the
  /// timer's). Until it is written, the compressor, the file's end and the frame fields belong
  /// to this thread: every other writer of chunks holds `syncing` (`sync()`, `close()`), waits
  /// for `chunkInFlight` to clear (a checkpoint, see `_whenNoChunkInFlight`) or leaves a full
  /// group pending while it is set.
  private func _groupSync(timer: Bool) {
    let durable = syncing.withLock { _ -> UInt64? in
      let taken = state.withLock { (s) -> _TakenChunk? in
        if timer { s.timerScheduled = false } else { s.syncRequested = false }
        guard s.closedReason == nil else { return nil }
        let taken: _TakenChunk
        do throws(JournalError) {
          guard let next = try _takeChunk(&s, forceFrameEnd: false) else { return nil }
          taken = next
        } catch {
          _poison(&s, error)
          return nil
        }
        // Appends continue into a fresh buffer of the same size while this one is written.
        s.pending.reserveCapacity(taken.records.count)
        s.chunkInFlight = true
        chunkWriting.enter()
        return taken
      }
      if let taken, !_writeInFlight(taken) { return nil }
      let pending = state.withLock { (s) -> _UnsyncedWrites? in
        s.closedReason == nil ? _unsyncedWrites(&s) : nil
      }
      guard let pending else { return nil }
      return try? _syncOutsideLock(pending)
    }
    // Outside every lock: the callback may call back into the writer (`sync()`, say).
    if let durable { options.onDurable?(durable) }
  }

  /// The sync thread's part of writing a chunk without the lock: compresses and writes one it
  /// took (`chunkInFlight` set), then records it as written — or poisons the writer (records
  /// appended meanwhile are never written). Either way the chunk stops being in flight and a
  /// checkpoint waiting for it goes on (to append, or to find the writer closed). Returns
  /// whether it was written.
  private func _writeInFlight(_ taken: _TakenChunk) -> Bool {
    let result: Result<_WrittenChunk, JournalError>
    do throws(JournalError) { result = .success(try _write(taken)) } catch { result = .failure(error) }
    state.withLock { s in
      switch result {
      case .success(let written): _recordWritten(taken, written, &s)
      case .failure(let error): if s.closedReason == nil { _poison(&s, error) }
      }
      s.chunkInFlight = false
      chunkWriting.leave()
    }
    if case .failure = result { return false }
    return true
  }

  /// The files to sync (the journal before its staging log, so a staged record that is
  /// durable follows a durable journal) and the last written sequences, when some written
  /// record is not yet durable; the files count as clean from here (a failed sync poisons).
  private func _unsyncedWrites(_ s: inout _WriterState) -> _UnsyncedWrites? {
    guard let file = s.file, s.writtenSequence > s.durableSequence || s.journalDirty || s.stagingDirty else { return nil }
    var files: [any JournalFileHandle] = []
    if s.journalDirty { files.append(file) }
    if s.stagingDirty, let staging = s.staging { files.append(staging.file) }
    s.journalDirty = false
    s.stagingDirty = false
    return _UnsyncedWrites(files: files, sequence: s.writtenSequence, journalSequence: s.journalWrittenSequence)
  }

  /// `fdatasync` of writes already in the file, without the state lock (the caller holds
  /// `syncing`, so `close()` waits); then advances `durableSequence` to what the sync covered and
  /// returns it if it advanced (the caller reports it once it holds no lock). A failure poisons
  /// the writer — records appended meanwhile are never reported durable.
  private func _syncOutsideLock(_ pending: _UnsyncedWrites) throws(JournalError) -> UInt64? {
    do throws(JournalError) { for file in pending.files { try file.sync(dataOnly: true) } } catch {
      state.withLock { s in
        if s.closedReason == nil { _poison(&s, error) }
      }
      throw error
    }
    return state.withLock { (s) -> UInt64? in
      s.journalDurableSequence = max(s.journalDurableSequence, pending.journalSequence)
      guard pending.sequence > s.durableSequence else { return nil }
      s.durableSequence = pending.sequence
      return s.durableSequence
    }
  }

  /// Compresses pending records into one chunk and writes it with a single `pwrite`.
  /// Ends the frame when forced or when the frame reached its target size.
  func _emitChunk(_ s: inout _WriterState, forceFrameEnd: Bool, toJournal: Bool = false) throws(JournalError) {
    guard s.file != nil else { throw .writerClosed(cause: s.closedReason ?? "closed") }
    do throws(JournalError) {
      guard var taken = try _takeChunk(&s, forceFrameEnd: forceFrameEnd, toJournal: toJournal) else { return }
      _recordWritten(taken, try _write(taken), &s)
      // Nothing was appended meanwhile (the lock is held): the buffer goes back, emptied.
      swap(&s.pending, &taken.records)
      s.pending.removeAll(keepingCapacity: true)
    } catch {
      _poison(&s, error)
      throw error
    }
  }

  /// Takes the next chunk out of `pending`: a small one for the staging log when staging is on,
  /// else a journal chunk of the staged and pending records, or an empty chunk that only ends
  /// the open frame; nil when there is nothing to write. Its frame flags and offset follow the
  /// state now, so it must be written (``_write(_:)``) before any other chunk.
  private func _takeChunk(_ s: inout _WriterState, forceFrameEnd: Bool, toJournal: Bool = false) throws(JournalError)
    -> _TakenChunk?
  {
    guard let file = s.file else { return nil }
    if !forceFrameEnd && !toJournal {
      if let staged = try _takeStagedChunk(&s) { return staged }
      // Nothing new: staged records stay staged (they are as durable there).
      if s.pendingCount == 0 && options.stagingBatchRecords > 0 && !(s.frameOpen && s.frameInputBytes >= options.frameTargetBytes) {
        return nil
      }
    }
    _carryStagedIntoPending(&s)
    let endFrame = forceFrameEnd || s.frameInputBytes + s.pending.count >= options.frameTargetBytes
    let empty = s.pendingCount == 0
    if empty && !(endFrame && s.frameOpen) { return nil }
    var flags: UInt8 = 0
    if !s.frameOpen { flags |= _ChunkHeader.frameStartFlag }
    if endFrame { flags |= _ChunkHeader.frameEndFlag }
    if s.pendingStartsWithCheckpoint && !s.frameOpen && !empty { flags |= _ChunkHeader.checkpointFlag }
    let header = _ChunkHeader(
      flags: flags, compressedLength: 0, uncompressedLength: UInt32(truncatingIfNeeded: s.pending.count),
      recordCount: s.pendingCount, firstSequence: empty ? s.nextSequence : s.pendingFirstSequence,
      firstVersion: empty ? (s.lastVersion ?? 0) : s.pendingFirstVersion,
      lastVersion: empty ? (s.lastVersion ?? 0) : s.pendingLastVersion)
    let taken = _TakenChunk(
      file: file, compressor: s.compressor, salt: salt, staging: nil, records: s.pending, header: header,
      lastSequence: s.nextSequence - 1, offset: s.endOffset)
    s.pending = []
    s.pendingCount = 0
    s.pendingStartsWithCheckpoint = false
    return taken
  }

  /// Compresses a taken chunk and writes it at its offset; returns its size and checksum. It
  /// reads no writer state: the caller holds the lock, or is the sync thread with the chunk in
  /// flight.
  private func _write(_ taken: _TakenChunk) throws(JournalError) -> _WrittenChunk {
    let compressed = try taken.compressor.compress(taken.records, endFrame: taken.endFrame)
    guard compressed.count <= options.limits.maxChunkBytes, taken.records.count <= options.limits.maxChunkBytes else {
      throw .tooLarge(
        what: "chunk", size: Int64(max(compressed.count, taken.records.count)), limit: Int64(options.limits.maxChunkBytes),
        offset: taken.offset)
    }
    var header = taken.header
    header.compressedLength = UInt32(compressed.count)
    header.uncompressedLength = UInt32(taken.records.count)
    let bytes = header.encode(salt: taken.salt, offset: taken.offset, payload: compressed)
    try taken.file.write(bytes, at: taken.offset)
    let checksum = bytes.withUnsafeBytes { $0._loadLE(UInt32.self, at: _ChunkHeader.checksumOffset) }
    return _WrittenChunk(byteCount: Int64(bytes.count), checksum: checksum)
  }

  /// Moves the file's end and the frame past a written chunk.
  private func _recordWritten(_ taken: _TakenChunk, _ written: _WrittenChunk, _ s: inout _WriterState) {
    s.writtenSequence = taken.lastSequence
    if let staging = taken.staging {
      staging.endOffset = taken.offset + written.byteCount
      staging.frameOpen = true
      s.stagingDirty = true
      return
    }
    s.journalDirty = true
    s.journalWrittenSequence = taken.lastSequence
    s.lastChunk = (taken.offset, written.checksum)
    s.endOffset = taken.offset + written.byteCount
    s.frameInputBytes = taken.endFrame ? 0 : s.frameInputBytes + taken.records.count
    s.frameOpen = !taken.endFrame
  }

  /// `fdatasync`, advancing `durableSequence`; returns it if it advanced.
  func _syncFile(_ s: inout _WriterState) throws(JournalError) -> UInt64? {
    guard s.file != nil else { throw .writerClosed(cause: s.closedReason ?? "closed") }
    guard let pending = _unsyncedWrites(&s) else { return nil }
    do throws(JournalError) { for file in pending.files { try file.sync(dataOnly: true) } } catch {
      _poison(&s, error)
      throw error
    }
    s.journalDurableSequence = pending.journalSequence
    guard s.writtenSequence > s.durableSequence else { return nil }
    s.durableSequence = s.writtenSequence
    return s.durableSequence
  }

  /// Stops the writer after a failure: never retried, the lock is released so a reopen can
  /// recover from what reached the disk.
  private func _poison(_ s: inout _WriterState, _ error: JournalError) {
    s.closedReason = "stopped after failure: \(error)"
    s.file?.close()
    s.file = nil
    s.staging?.close()
    s.staging = nil
  }
}
