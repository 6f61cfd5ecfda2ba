import ListState

/// Everything a ``ListStore`` guards with its lock.
@usableFromInline
struct _StoreState<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var graph: _HistoryGraph<Section, Item>
  @usableFromInline var head = 0
  @usableFromInline var headSnapshot = ListSnapshot<Section, Item>()
  @usableFromInline let clock: @Sendable () -> Double

  @usableFromInline var codec: HistoryCodec<Section, Item>?
  @usableFromInline var sink: (any HistoryRecordSink)?
  @usableFromInline var recordSequence: UInt64 = 0
  @usableFromInline var journalCheckpointBytes = ListStoreConfiguration.defaultJournalCheckpointBytes
  /// Where the checkpoint budget stands (without a background encoder, which keeps its own).
  @usableFromInline var checkpointSpacing = _CheckpointSpacing()
  /// Checkpoint records skipped because they exceeded the sink's payload limit (see
  /// `checkpointIfDue()`).
  @usableFromInline var refusedCheckpoints = 0
  /// Set instead of `codec` and `sink` when records are encoded on another thread (a journal
  /// with deferred, relaxed writes): `persist` then only queues what to encode.
  @usableFromInline var backgroundEncoder: _BackgroundRecordEncoder<Section, Item>?
  /// With a background encoder: the sequence of the last checkpoint record queued (0: none).
  /// A replay sets it to the stream's last checkpoint.
  @usableFromInline var lastCheckpointSequence: UInt64 = 0
  /// Kept by a replay for a background encoder that continues the stream: the item count of
  /// the last checkpoint's state (nil: none) and the first record after it at which a
  /// checkpoint became due (nil: none yet).
  @usableFromInline var lastCheckpointItems: Int?
  @usableFromInline var checkpointDueSince: UInt64?
  /// Set by a replayed gap record until the checkpoint after it says where the head is.
  @usableFromInline var awaitsResumption = false
  /// Set while a store opened from its head has not loaded its older history (see
  /// ``_UnloadedHistory``): `graph` then holds only the opened head and the commits since.
  @usableFromInline var unloaded: _UnloadedHistory<Section, Item>?
  /// With `unloaded`: the versions around the opened head the graph holds (see ``_UnloadedWindow``).
  @usableFromInline var window: _UnloadedWindow?

  @usableFromInline var observers: [UInt64: @Sendable (ListChange<Section, Item>) -> Void] = [:]
  @usableFromInline var nextObserverID: UInt64 = 0
  @usableFromInline var pending: [ListChange<Section, Item>] = []
  @usableFromInline var isDelivering = false

  @inlinable
  init(graph: _HistoryGraph<Section, Item>, clock: @escaping @Sendable () -> Double) {
    self.graph = graph
    self.clock = clock
  }

  /// Now in milliseconds (timestamps are kept at the precision the codec stores).
  @inlinable
  func nowMillis() -> Int64 { HistoryCodec<Section, Item>.millis(clock()) }

  /// Encodes a record and hands it to the sink; on failure the codec is as before.
  @inlinable
  mutating func persist(_ content: HistoryRecordContent<Section, Item>) throws {
    if let backgroundEncoder {
      // Queued, not encoded: throws only an earlier record's failure (or a closed journal's).
      try backgroundEncoder.submit(.record(content, sequence: recordSequence + 1))
      recordSequence += 1
      return
    }
    // The codec is used in place (`codec!`): a local copy would make its intern tables shared
    // (every record would copy them), and moving it out and back costs two copies of the struct.
    guard sink != nil, codec != nil else { return }
    let mark = codec!.markEncoder()
    let record = try codec!.encode(content, sequence: recordSequence + 1, from: mark)
    do {
      try sink?.write(record)
    } catch {
      codec!.rollBackEncoder(to: mark)
      throw error
    }
    recordSequence += 1
    checkpointSpacing.add(recordOf: record.payload.count)
  }

  /// The state is about to change by `events` (nil: in ways not listed) without a record that
  /// names the items: the codec must stop treating their remembered contents as current.
  ///
  /// - Complexity: O(items named by the events), or O(items remembered) for nil.
  @inlinable
  mutating func forgetCurrentContents(changedBy events: [ListEvent<Section, Item>]?) {
    if let backgroundEncoder {
      // After a failure the next record's submission throws it; nothing to forget then.
      try? backgroundEncoder.submit(.forgetCurrentContents(events))
      return
    }
    guard codec != nil else { return }
    codec!.forgetCurrentContents(changedBy: events)
  }

  /// Writes a checkpoint record after a change when the byte budget is used up. A failure
  /// leaves the codec as it was and never fails the change itself; the next attempt comes
  /// after the budget's distance for a checkpoint of the size that failed (see below).
  ///
  /// The last checkpoint's size then counts the skipped one's. A store reopened from the file
  /// does not know of it (the file holds no trace), so it tries once more at its first change.
  @inlinable
  mutating func checkpointIfDue() {
    if let backgroundEncoder {
      // The lagged rule (see `_BackgroundRecordEncoder`): the same records give the same file.
      guard backgroundEncoder.isCheckpointDue(after: recordSequence, afterCheckpoint: lastCheckpointSequence) else {
        return
      }
      let checkpoint = HistoryCheckpoint(
        head: Version(head), latestVersion: Version(graph.count - 1), snapshot: headSnapshot)
      if (try? persist(.checkpoint(checkpoint))) != nil { lastCheckpointSequence = recordSequence }
      return
    }
    // A full-state checkpoint is due after the byte budget, and never before several times the
    // size of the last checkpoint: on large lists full states would otherwise dominate the file.
    // `saved` keeps the pre-checkpoint tables in case the write fails (the checkpoint resets them).
    guard sink != nil, checkpointSpacing.isDue(budget: journalCheckpointBytes),
      let saved = codec  // only now: the copy retains every table
    else { return }
    let checkpoint = HistoryCheckpoint(
      head: Version(head), latestVersion: Version(graph.count - 1), snapshot: headSnapshot)
    // Not retried at the next change when it fails: a checkpoint that does not fit — larger
    // than the journal's record limit, a list of millions of items — was encoded again, for
    // seconds, at every commit (a 10M-event benchmark slowed to a commit a second at 1.4M
    // items). The next attempt comes after 8× the failed size in other records, which keeps
    // the encoding's cost amortized over those records.
    func backOff(_ failedBytes: Int) {
      codec = saved
      checkpointSpacing.restart(afterCheckpointOf: failedBytes, written: false)
    }
    let record: HistoryRecord
    do { record = try codec!.encode(.checkpoint(checkpoint), sequence: recordSequence + 1) } catch {
      return backOff(checkpointSpacing.lastCheckpointBytes)
    }
    if let limit = sink?.maximumPayloadBytes, record.payload.count > limit {
      refusedCheckpoints += 1
      return backOff(record.payload.count)
    }
    do { try sink?.write(record) } catch { return backOff(record.payload.count) }
    recordSequence += 1
    checkpointSpacing.restart(afterCheckpointOf: record.payload.count, written: true)
    // As a replay of the stream would know them: a store opened from its head continues from here.
    lastCheckpointSequence = recordSequence
    lastCheckpointItems = headSnapshot.numberOfItems
  }
}
