/// Replays a journal's records into a store, mapping failures to errors that name the byte
/// offset, the record sequence and its version.
enum _JournalReplay {
  /// Where the replay stands, for error messages (a class so the lazy sequence can report into it).
  ///
  /// `sequence` and `version` are written for every record, so they opt out of the dynamic
  /// exclusivity checks (two runtime calls per record otherwise): only the replaying thread's
  /// iterator writes them, and they are read after the replay returned.
  final class Progress {
    @exclusivity(unchecked) var sequence: UInt64 = 0
    @exclusivity(unchecked) var version: UInt64 = 0
    var error: JournalError?
  }

  /// The journal's history records, lazily decoded (metadata and unknown kinds skipped).
  struct Records: Sequence {
    let reader: JournalReader
    let progress: Progress
    let fromFrame: Int
    var counter: _KindCounter? = nil
    /// Sees each checkpoint record before the store does (verification).
    var onCheckpoint: ((HistoryRecord) -> Void)? = nil

    struct Iterator: IteratorProtocol {
      var inner: JournalRecordIterator
      let progress: Progress
      let counter: _KindCounter?
      let onCheckpoint: ((HistoryRecord) -> Void)?
      /// The record read last. Its payload's storage is shared with the history record handed
      /// out, and reused for the next one once the replay is done with that (it decodes each
      /// record before asking for the next), so no payload array is allocated per record.
      var record = JournalRecord(kind: .metadata, version: 0, payload: [])

      mutating func next() -> HistoryRecord? {
        do {
          while try inner.next(into: &record) {
            guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else { continue }
            progress.sequence = record.sequence
            progress.version = record.version
            if let counter {
              switch kind {
              case .commit: counter.commits += 1
              case .headMove: counter.headMoves += 1
              case .checkpoint: counter.checkpoints += 1
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

    func makeIterator() -> Iterator { Iterator(inner: reader.makeIterator(fromFrame: fromFrame), progress: progress, counter: counter, onCheckpoint: onCheckpoint) }
  }

  static func replay<Section, Item>(
    _ reader: JournalReader, codec: HistoryCodec<Section, Item>, sink: (any HistoryRecordSink)?,
    checkpointInterval: Int, checkpointBudget: CheckpointBudget, journalCheckpointBytes: Int,
    encodingInBackground: Bool = false, clock: @escaping @Sendable () -> Double, counter: _KindCounter? = nil
  ) throws(JournalStoreError) -> ListStore<Section, Item> {
    let progress = Progress()
    let store: ListStore<Section, Item>
    do {
      store = try ListStore(
        replaying: Records(reader: reader, progress: progress, fromFrame: 0, counter: counter), codec: codec, sink: sink,
        checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
        journalCheckpointBytes: journalCheckpointBytes,
        foldingFlat: checkpointInterval >= ListStore<Section, Item>.flatReplayCheckpointInterval,
        encodingInBackground: encodingInBackground, clock: clock)
    } catch {
      if let failure = progress.error { throw .journal(failure) }
      throw invalidRecord(error, reader: reader, progress: progress)
    }
    if let failure = progress.error { throw .journal(failure) }
    return store
  }

  static func invalidRecord(_ error: HistoryError, reader: JournalReader, progress: Progress) -> JournalStoreError {
    var reason = error.description
    if case .invalidRecord(_, let inner) = error { reason = inner }
    return .invalidRecord(
      offset: offset(ofSequence: progress.sequence, in: reader), sequence: progress.sequence, version: progress.version,
      reason: reason)
  }

  /// Byte offset of the frame holding the record with `sequence` (the header size when unknown).
  static func offset(ofSequence sequence: UInt64, in reader: JournalReader) -> Int64 {
    var low = 0
    var high = reader.frames.count
    while low < high {
      let mid = (low + high) / 2
      if reader.frames[mid].firstSequence <= sequence { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? (reader.frames.first?.offset ?? 64) : reader.frames[low - 1].offset
  }
}
