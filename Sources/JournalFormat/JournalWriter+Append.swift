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
    let (receipt, durable) = try state.withLock { (s) throws(JournalError) -> (AppendReceipt, UInt64?) in
      try _append(record, &s)
    }
    if let durable { options.onDurable?(durable) }
    return receipt
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
    let (receipt, durable) = try state.withLock { (s) throws(JournalError) -> (AppendReceipt?, UInt64?) in
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
    if let durable { options.onDurable?(durable) }
    return receipt
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
      let pending = try state.withLock { (s) throws(JournalError) -> (file: any JournalFileHandle, sequence: UInt64)? in
        try _checkOpen(s)
        try _emitChunk(&s, forceFrameEnd: false)
        return _unsyncedWrites(s)
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
    guard record.payload.count <= options.limits.maxRecordPayload else {
      throw .tooLarge(what: "record payload", size: Int64(record.payload.count), limit: Int64(options.limits.maxRecordPayload), offset: nil)
    }
    guard record.kind.rawValue != 0 else { throw .invalidArgument("record kind 0 is reserved") }
    if let last = lastVersion, record.version < last { throw .versionOutOfOrder(version: record.version, previous: last) }
  }

  /// Adds a validated record to the pending chunk (a checkpoint first ends the current frame);
  /// the receipt's `isDurable` is not yet meaningful.
  private func _stage(_ record: JournalRecord, _ s: inout _WriterState) throws(JournalError) -> AppendReceipt {
    if record.kind == .checkpoint && (s.frameOpen || s.pendingCount > 0) {
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
      // the memory held) and its sync, like the timed one, runs on another thread.
      if s.pending.count >= maxBytes || s.pendingCount >= UInt32.max / 2 {
        try _emitChunk(&s, forceFrameEnd: false)
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
  private func _groupSync(timer: Bool) {
    let durable = syncing.withLock { _ -> UInt64? in
      let pending = state.withLock { (s) -> (file: any JournalFileHandle, sequence: UInt64)? in
        if timer { s.timerScheduled = false } else { s.syncRequested = false }
        guard s.closedReason == nil else { return nil }
        do throws(JournalError) { try _emitChunk(&s, forceFrameEnd: false) } catch { return nil }
        return _unsyncedWrites(s)
      }
      guard let pending else { return nil }
      return try? _syncOutsideLock(pending)
    }
    // Outside every lock: the callback may call back into the writer (`sync()`, say).
    if let durable { options.onDurable?(durable) }
  }

  /// The file and the last written sequence when some written record is not yet durable.
  private func _unsyncedWrites(_ s: borrowing _WriterState) -> (file: any JournalFileHandle, sequence: UInt64)? {
    guard let file = s.file, s.writtenSequence > s.durableSequence else { return nil }
    return (file, s.writtenSequence)
  }

  /// `fdatasync` of writes already in the file, without the state lock (the caller holds
  /// `syncing`, so `close()` waits); then advances `durableSequence` to what the sync covered and
  /// returns it if it advanced (the caller reports it once it holds no lock). A failure poisons
  /// the writer — records appended meanwhile are never reported durable.
  private func _syncOutsideLock(_ pending: (file: any JournalFileHandle, sequence: UInt64)) throws(JournalError) -> UInt64? {
    do throws(JournalError) { try pending.file.sync(dataOnly: true) } catch {
      state.withLock { s in
        if s.closedReason == nil { _poison(&s, error) }
      }
      throw error
    }
    return state.withLock { (s) -> UInt64? in
      guard pending.sequence > s.durableSequence else { return nil }
      s.durableSequence = pending.sequence
      return s.durableSequence
    }
  }

  /// Compresses pending records into one chunk and writes it with a single `pwrite`.
  /// Ends the frame when forced or when the frame reached its target size.
  private func _emitChunk(_ s: inout _WriterState, forceFrameEnd: Bool) throws(JournalError) {
    guard let file = s.file else { throw .writerClosed(cause: s.closedReason ?? "closed") }
    let endFrame = forceFrameEnd || s.frameInputBytes + s.pending.count >= options.frameTargetBytes
    if s.pendingCount == 0 && !(endFrame && s.frameOpen) { return }
    do throws(JournalError) {
      let compressed = try s.compressor.compress(s.pending, endFrame: endFrame)
      var flags: UInt8 = 0
      if !s.frameOpen { flags |= _ChunkHeader.frameStartFlag }
      if endFrame { flags |= _ChunkHeader.frameEndFlag }
      if s.pendingStartsWithCheckpoint && !s.frameOpen && s.pendingCount > 0 { flags |= _ChunkHeader.checkpointFlag }
      let empty = s.pendingCount == 0
      let header = _ChunkHeader(
        flags: flags, compressedLength: UInt32(compressed.count), uncompressedLength: UInt32(s.pending.count),
        recordCount: s.pendingCount, firstSequence: empty ? s.nextSequence : s.pendingFirstSequence,
        firstVersion: empty ? (s.lastVersion ?? 0) : s.pendingFirstVersion,
        lastVersion: empty ? (s.lastVersion ?? 0) : s.pendingLastVersion)
      guard compressed.count <= options.limits.maxChunkBytes, s.pending.count <= options.limits.maxChunkBytes else {
        throw .tooLarge(what: "chunk", size: Int64(max(compressed.count, s.pending.count)), limit: Int64(options.limits.maxChunkBytes), offset: s.endOffset)
      }
      let bytes = header.encode(salt: salt, offset: s.endOffset, payload: compressed)
      try file.write(bytes, at: s.endOffset)
      s.endOffset += Int64(bytes.count)
      s.frameInputBytes = endFrame ? 0 : s.frameInputBytes + s.pending.count
      s.frameOpen = !endFrame
      s.writtenSequence = s.nextSequence - 1
      s.pending.removeAll(keepingCapacity: true)
      s.pendingCount = 0
      s.pendingStartsWithCheckpoint = false
    } catch {
      _poison(&s, error)
      throw error
    }
  }

  /// `fdatasync`, advancing `durableSequence`; returns it if it advanced.
  private func _syncFile(_ s: inout _WriterState) throws(JournalError) -> UInt64? {
    guard let file = s.file else { throw .writerClosed(cause: s.closedReason ?? "closed") }
    guard s.writtenSequence > s.durableSequence else { return nil }
    do throws(JournalError) { try file.sync(dataOnly: true) } catch {
      _poison(&s, error)
      throw error
    }
    s.durableSequence = s.writtenSequence
    return s.durableSequence
  }

  /// Stops the writer after a failure: never retried, the lock is released so a reopen can
  /// recover from what reached the disk.
  private func _poison(_ s: inout _WriterState, _ error: JournalError) {
    s.closedReason = "stopped after failure: \(error)"
    s.file?.close()
    s.file = nil
  }
}
