/// Replays a journal's records into a store, mapping failures to errors that name the byte
/// offset, the record sequence and its version.
@usableFromInline
enum _JournalReplay {
  /// Where the replay stands, for error messages (a class so the lazy sequence can report into it).
  ///
  /// `sequence` and `version` are written for every record, so they opt out of the dynamic
  /// exclusivity checks (two runtime calls per record otherwise): only the replaying thread's
  /// iterator writes them, and they are read after the replay returned.
  @usableFromInline
  final class Progress {
    @inlinable
    init() {}
    @usableFromInline @exclusivity(unchecked) var sequence: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var version: UInt64 = 0
    @usableFromInline var error: JournalError?
    /// The first record was a replica journal's header: the replay stopped there.
    @usableFromInline var foundReplicaHeader = false
  }

  /// The kind of a replica journal's first record (ListReplica's header; `Journal/FORMAT.md`
  /// §12): a store must not show such a file as an empty list.
  @inlinable
  static var replicaHeaderKind: UInt8 { 5 }

  /// Told (records read, records in the journal) as a replay reads the file, on the thread that
  /// replays (it reads and decodes; a second thread folds): for a tool's progress bar.
  @usableFromInline typealias ProgressHandler = (_ done: Int, _ total: Int) -> Void

  /// Records between two reports to a ``ProgressHandler``: the handler is not called per record
  /// (a bar only needs a few steps per drawing), yet 64 records take microseconds to read, so a
  /// bar drawn at 10 Hz still sees hundreds of steps between two drawings.
  @inlinable
  static var progressInterval: Int { 64 }

  /// The journal's history records, lazily decoded (metadata and unknown kinds skipped).
  @usableFromInline
  struct Records: Sequence {
    @usableFromInline let reader: JournalReader
    @usableFromInline let progress: Progress
    @usableFromInline let fromFrame: Int
    @usableFromInline var counter: _KindCounter? = nil
    /// Sees each checkpoint record before the store does (verification).
    @usableFromInline var onCheckpoint: ((HistoryRecord) -> Void)? = nil
    /// Told every ``_JournalReplay/progressInterval`` records read (of every kind).
    @usableFromInline var onProgress: ProgressHandler? = nil

    @inlinable
    init(reader: JournalReader, progress: Progress, fromFrame: Int, counter: _KindCounter? = nil, onCheckpoint: ((HistoryRecord) -> Void)? = nil, onProgress: ProgressHandler? = nil) {
      self.reader = reader
      self.progress = progress
      self.fromFrame = fromFrame
      self.counter = counter
      self.onCheckpoint = onCheckpoint
      self.onProgress = onProgress
    }

    @usableFromInline
    struct Iterator: IteratorProtocol {
      @usableFromInline var inner: JournalRecordIterator
      @usableFromInline let progress: Progress
      @usableFromInline let counter: _KindCounter?
      @usableFromInline let onCheckpoint: ((HistoryRecord) -> Void)?
      @usableFromInline let onProgress: ProgressHandler?
      /// Whether a record was read yet (the first one tells a replica journal apart).
      @usableFromInline var readAny = false
      /// The reader's record count, for `onProgress`.
      @usableFromInline let total: Int
      /// Records read so far, metadata and unknown kinds included (what `total` counts).
      @usableFromInline var read = 0
      /// The record read last. Its payload's storage is shared with the history record handed
      /// out, and reused for the next one once the replay is done with that (it decodes each
      /// record before asking for the next), so no payload array is allocated per record.
      @usableFromInline var record = JournalRecord(kind: .metadata, version: 0, payload: [])

      @inlinable
      init(
        inner: JournalRecordIterator, progress: Progress, counter: _KindCounter?,
        onCheckpoint: ((HistoryRecord) -> Void)?, onProgress: ProgressHandler?, total: Int
      ) {
        self.inner = inner
        self.progress = progress
        self.counter = counter
        self.onCheckpoint = onCheckpoint
        self.onProgress = onProgress
        self.total = total
      }

      @inlinable
      mutating func next() -> HistoryRecord? {
        do {
          while try inner.next(into: &record) {
            if !readAny {
              readAny = true
              if record.kind.rawValue == _JournalReplay.replicaHeaderKind {
                progress.foundReplicaHeader = true
                return nil
              }
            }
            if let onProgress {
              read += 1
              if read % _JournalReplay.progressInterval == 0 { onProgress(read, total) }
            }
            guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else { continue }
            progress.sequence = record.sequence
            progress.version = record.version
            if let counter {
              switch kind {
              case .commit: counter.commits += 1
              case .headMove: counter.headMoves += 1
              case .checkpoint: counter.checkpoints += 1
              case .gap: counter.gaps += 1
              }
            }
            let result = HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload)
            if kind == .checkpoint { onCheckpoint?(result) }
            return result
          }
        } catch {
          progress.error = error
        }
        return nil
      }
    }

    @inlinable
    func makeIterator() -> Iterator {
      Iterator(
        inner: reader.makeIterator(fromFrame: fromFrame), progress: progress, counter: counter, onCheckpoint: onCheckpoint,
        onProgress: onProgress, total: onProgress == nil ? 0 : Int(reader.recordCount))
    }
  }

  /// Replays the whole journal into a new store.
  ///
  /// - Parameter onProgress: told (0, `reader.recordCount`) before the first record (a bar shows
  ///   at once), (records read, total) every ``progressInterval`` records, and (total, total)
  ///   once the replay succeeded.
  @inlinable
  static func replay<Section, Item>(
    _ reader: JournalReader, codec: HistoryCodec<Section, Item>, sink: (any HistoryRecordSink)?,
    checkpointInterval: Int, checkpointBudget: CheckpointBudget, journalCheckpointBytes: Int,
    encodingInBackground: Bool = false, clock: @escaping @Sendable () -> Double, counter: _KindCounter? = nil,
    onProgress: ProgressHandler? = nil
  ) throws(JournalStoreError) -> ListStore<Section, Item> {
    let progress = Progress()
    onProgress?(0, Int(reader.recordCount))
    let store: ListStore<Section, Item>
    do {
      store = try ListStore(
        replaying: Records(reader: reader, progress: progress, fromFrame: 0, counter: counter, onProgress: onProgress),
        codec: codec, sink: sink,
        checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
        journalCheckpointBytes: journalCheckpointBytes,
        options: .init(encodingInBackground: encodingInBackground, expectedRecordCount: expectedRecordCount(of: reader)),
        clock: clock)
    } catch {
      throw failure(error, reader: reader, progress: progress)
    }
    if let failure = progress.error { throw .journal(failure) }
    if progress.foundReplicaHeader { throw .replicaJournal(path: reader.path) }
    if let onProgress {
      let total = Int(reader.recordCount)
      onProgress(total, total)
    }
    return store
  }

  /// The records the journal's index counts, as a hint for the history's room (about 128 bytes
  /// of address space a record, for its version and an event).
  ///
  /// The counts come from chunk headers that nothing has checked against the records yet, so
  /// an untrusted file could claim billions. The hint is therefore bounded by the file's size:
  /// a record per 4 bytes (real journals of the mixed workload take ~11; a journal that
  /// compresses better only grows the arrays as before), so a crafted count reserves at most
  /// 32 bytes of address space per byte of file, and never more than 2^25 records (4 GiB).
  @inlinable
  static func expectedRecordCount(of reader: JournalReader) -> Int {
    expectedRecordCount(claimed: reader.recordCount, fileBytes: reader.recovery.validBytes)
  }

  /// ``expectedRecordCount(of:)`` from the records the headers claim and the file's valid bytes.
  @inlinable
  static func expectedRecordCount(claimed: UInt64, fileBytes: Int64) -> Int {
    Int(min(claimed, UInt64(max(0, fileBytes)) / 4, 1 << 25))
  }

  /// What a replay that threw `error` reports: the first failure in stream order — a record that
  /// failed to apply before the iterator met damaged bytes, not the damage after it.
  @inlinable
  static func failure(_ error: HistoryError, reader: JournalReader, progress: Progress) -> JournalStoreError {
    if let damage = progress.error, !error.namesRecord(atOrBefore: progress.sequence) { return .journal(damage) }
    return invalidRecord(error, reader: reader, progress: progress)
  }

  /// The error for a record the history could not decode or apply, naming that record.
  ///
  /// The failing record is the one the error names, not necessarily the one read last: a long
  /// replay decodes ahead of the thread that applies the records, so when a record fails to
  /// apply, the iterator has moved on (by up to a few batches). Its version is then looked up in
  /// the file — a rare, error-only scan of one frame.
  @inlinable
  static func invalidRecord(_ error: HistoryError, reader: JournalReader, progress: Progress) -> JournalStoreError {
    var reason = error.description
    var sequence = progress.sequence
    var version = progress.version
    if case .invalidRecord(let failed, let inner) = error {
      reason = inner
      if failed != sequence {
        // 0 when the record cannot be read again (it was read once, so only new damage or an
        // I/O failure gets here): a wrong version would be worse than an unknown one.
        version = self.version(ofSequence: failed, in: reader) ?? 0
        sequence = failed
      }
    }
    return .invalidRecord(offset: offset(ofSequence: sequence, in: reader), sequence: sequence, version: version, reason: reason)
  }

  /// Byte offset of the frame holding the record with `sequence` (the header size when unknown).
  @inlinable
  static func offset(ofSequence sequence: UInt64, in reader: JournalReader) -> Int64 {
    guard let index = reader.frameIndex(containingSequence: sequence) else { return reader.frames.first?.offset ?? 64 }
    return reader.frames[index].offset
  }

  /// The version of the record with `sequence`, read from its frame (nil if it cannot be read).
  @inlinable
  static func version(ofSequence sequence: UInt64, in reader: JournalReader) -> UInt64? {
    guard let index = reader.frameIndex(containingSequence: sequence) else { return nil }
    var iterator = reader.makeIterator(fromFrame: index)
    while let record = try? iterator.next(), record.sequence <= sequence {
      if record.sequence == sequence { return record.version }
    }
    return nil
  }
}

extension HistoryError {
  /// Whether this is a record failure naming a record at or before `sequence`.
  @inlinable
  func namesRecord(atOrBefore sequence: UInt64) -> Bool {
    guard case .invalidRecord(let failed, _) = self else { return false }
    return failed <= sequence
  }
}
