import Dispatch
import ListState
import ListLocking

/// Encodes a store's records on a background serial queue and hands them to its sink, in the
/// order the store submitted them: the committing thread only queues what to encode (a commit's
/// events, a head move, a checkpoint's snapshot), and the codec's work — intern lookups,
/// element encoding, full-state checkpoints — runs on the second core.
///
/// A store uses it when its sink already writes later than the commit (a journal opened with
/// `defersWrites` and `.relaxed` durability), so nothing is promised at commit time that this
/// breaks: a change is in the sink once ``drain()`` returned (and in the file once the sink
/// has flushed it), as before. What changes is when a failure shows: a record that cannot be
/// encoded or written fails the encoder for good (a checkpoint over the sink's payload limit is
/// skipped instead, as the synchronous store skips it), and once the encoder has reached it the
/// failure is thrown by every later change (``submit(_:)``), ``drain()`` and call after — the
/// changes queued meanwhile (up to about a lag plus 64) were accepted and never reach the sink.
///
/// **Checkpoints stay deterministic.** The synchronous store writes a checkpoint record right
/// after the record at which the encoded bytes since the last checkpoint reach the budget. Here
/// that byte count is known only on the encoder's thread, so the store applies a lag: the
/// checkpoint follows the record `lag` records after the one at which it became due. Before
/// deciding at record `s`, the store waits until the encoder has finished record `s - lag`
/// (normally long done), so the decision depends on the records alone, never on timing: the
/// same changes give the same file bytes. The lag itself is a function of the records too: it
/// is set when a checkpoint is queued, from the number of items it holds (see
/// ``lag(afterCheckpointOf:checkpointBytes:)``).
///
/// ```swift
/// let encoder = _BackgroundRecordEncoder(codec: codec, sink: sink, journalCheckpointBytes: 256 * 1024,
///                                        spacing: _CheckpointSpacing(), lastSequence: 0)
/// try encoder.submit(.record(.commit(commit), sequence: 1))   // queued; throws an earlier failure
/// try encoder.drain()                                          // every record is in the sink
/// ```
/// - Complexity: O(1) amortized per submission on the committing thread (a wake-up of the
///   queue per ``wakeBatch`` submissions); the encoding itself costs what the codec costs.
@usableFromInline
final class _BackgroundRecordEncoder<Section: ListElement, Item: ListElement>: Sendable {
  /// One unit of encoder work, in submission order.
  @usableFromInline
  enum Work: Sendable {
    /// Encode and write this record (its sequence is the store's record count after it).
    case record(HistoryRecordContent<Section, Item>, sequence: UInt64)
    /// ``HistoryCodec``'s remembered contents of these events' items (all, for nil) are no
    /// longer current (see `_StoreState.forgetCurrentContents`).
    case forgetCurrentContents([ListEvent<Section, Item>]?)
  }

  /// Records between the one at which a checkpoint becomes due and the one it follows (the
  /// lag), before any checkpoint's size is known: about 1/256 of the checkpoint budget at one
  /// byte per record (records are 5+ bytes), between 16 and 1,024 — a few percent more bytes
  /// between checkpoints, and far enough behind that the committing thread rarely waits.
  @inlinable
  static func baseLag(forCheckpointBytes bytes: Int) -> UInt64 { UInt64(min(1_024, max(16, bytes / 256))) }

  /// The lag after a checkpoint of `items` items is queued. Why it grows with the list: a
  /// full-state checkpoint keeps the encoder busy for about a microsecond an item, and the
  /// committing thread (a microsecond or more a record) must not catch up with it before its
  /// next decision is due. One record per two items covers it, and puts the next checkpoint
  /// only a few percent further.
  @inlinable
  static func lag(afterCheckpointOf items: Int, checkpointBytes: Int) -> UInt64 {
    max(baseLag(forCheckpointBytes: checkpointBytes), UInt64(min(items / 2, 1 << 20)))
  }

  /// Submissions that wake an idle encoder: one wake-up (a few microseconds) per this many
  /// commits, instead of one per commit. Well below the lag of a real budget (1,024 records for
  /// 256 KiB), so the committing thread does not wait for a sleeping encoder; with tiny budgets
  /// (tests) a decision that needs the encoder wakes it itself (``isCheckpointDue(after:afterCheckpoint:)``).
  @inlinable
  static var wakeBatch: Int { 64 }

  /// What only the encoder's queue touches (a lock taken once per batch, never contended).
  @usableFromInline
  struct EncoderSide: Sendable {
    @usableFromInline var codec: HistoryCodec<Section, Item>
    @usableFromInline let sink: any HistoryRecordSink
    @usableFromInline var spacing: _CheckpointSpacing
    /// Checkpoints skipped for exceeding the sink's payload limit.
    @usableFromInline var refusedCheckpoints = 0
    /// The first record after the last checkpoint at which a checkpoint became due (the value
    /// the committing side reads in `Shared`, published after each batch).
    @usableFromInline var dueSince: UInt64?

    @inlinable
    init(codec: HistoryCodec<Section, Item>, sink: any HistoryRecordSink, spacing: _CheckpointSpacing, refusedCheckpoints: Int = 0, dueSince: UInt64? = nil) {
      self.codec = codec
      self.sink = sink
      self.spacing = spacing
      self.refusedCheckpoints = refusedCheckpoints
      self.dueSince = dueSince
    }
  }

  /// What both sides read and write.
  @usableFromInline
  struct Shared: Sendable {
    /// Submitted work the encoder has not taken yet.
    @usableFromInline var pending: [Work] = []
    /// Whether a drain of `pending` is scheduled or running on the queue.
    @usableFromInline var isRunning = false
    /// The sequence of the last record submitted, and of the last one the encoder finished
    /// (written, or dropped after a failure).
    @usableFromInline var submitted: UInt64
    @usableFromInline var finished: UInt64
    /// The first record after the last encoded checkpoint at which a checkpoint became due.
    @usableFromInline var dueSince: UInt64?
    /// The lag of the current decision (see ``lag(afterCheckpointOf:checkpointBytes:)``): set
    /// by the committing side when it queues a checkpoint (a function of the checkpoint's state,
    /// so of the records).
    @usableFromInline var lag: UInt64
    /// The first failure (encoding, or the sink's write), kept for good.
    @usableFromInline var failure: (any Error)?
    /// Set by ``close(failingLaterWith:)``: what later submissions throw.
    @usableFromInline var closedError: (any Error)?
    /// Threads waiting for `finished` to reach a sequence (or for a failure).
    @usableFromInline var waiters: [(through: UInt64, semaphore: DispatchSemaphore)] = []

    @inlinable
    init(pending: [Work] = [], isRunning: Bool = false, submitted: UInt64, finished: UInt64, dueSince: UInt64? = nil, lag: UInt64, failure: (any Error)? = nil, closedError: (any Error)? = nil, waiters: [(through: UInt64, semaphore: DispatchSemaphore)] = []) {
      self.pending = pending
      self.isRunning = isRunning
      self.submitted = submitted
      self.finished = finished
      self.dueSince = dueSince
      self.lag = lag
      self.failure = failure
      self.closedError = closedError
      self.waiters = waiters
    }
  }

  @usableFromInline let journalCheckpointBytes: Int
  @usableFromInline let encoderSide: ListMutex<EncoderSide>
  @usableFromInline let shared: ListMutex<Shared>
  @usableFromInline let queue = DispatchQueue(label: "ListHistory.ListStore.backgroundRecordEncoder")

  /// - Parameters:
  ///   - lastSequence: the sequence of the last record already in the sink's stream.
  ///   - spacing: where the checkpoint budget stands after those records (a replay reports it).
  ///   - checkpointDueSince: the first of those records after the last checkpoint at which a
  ///     checkpoint became due (a store closed before its lagged checkpoint), if any.
  ///   - lastCheckpointItems: the item count of the stream's last checkpoint, if any (it sets
  ///     the lag, as it would have in the store that wrote it).
  @inlinable
  init(
    codec: HistoryCodec<Section, Item>, sink: any HistoryRecordSink, journalCheckpointBytes: Int,
    spacing: _CheckpointSpacing, lastSequence: UInt64, checkpointDueSince: UInt64? = nil,
    lastCheckpointItems: Int? = nil
  ) {
    self.journalCheckpointBytes = journalCheckpointBytes
    encoderSide = ListMutex(
      EncoderSide(
        codec: codec, sink: sink, spacing: spacing, dueSince: checkpointDueSince))
    let lag =
      lastCheckpointItems.map { Self.lag(afterCheckpointOf: $0, checkpointBytes: journalCheckpointBytes) }
      ?? Self.baseLag(forCheckpointBytes: journalCheckpointBytes)
    var initial = Shared(submitted: lastSequence, finished: lastSequence, lag: lag)
    initial.dueSince = checkpointDueSince
    shared = ListMutex(initial)
  }

  // MARK: The committing side

  /// Queues `work` behind everything submitted before. Throws, without queueing it, the
  /// encoder's failure or the error given to ``close(failingLaterWith:)``.
  @inlinable
  func submit(_ work: Work) throws {
    let start = try shared.withLock { (s) throws -> Bool in
      if let failure = s.failure ?? s.closedError { throw failure }
      var wakeAt = Self.wakeBatch
      if case .record(let content, let sequence) = work {
        s.submitted = sequence
        if case .checkpoint(let checkpoint) = content {
          s.lag = Self.lag(afterCheckpointOf: checkpoint.snapshot.numberOfItems, checkpointBytes: journalCheckpointBytes)
          // Started at once: the queued snapshot shares the head's nodes, and every change
          // path-copies them until the encoder has let go of it.
          wakeAt = 1
        }
      }
      s.pending.append(work)
      return Self.claimRun(&s, atLeast: wakeAt)
    }
    if start { scheduleRun() }
  }

  /// Whether a checkpoint is due after record `sequence` under the lagged rule (see the type's
  /// documentation): waits until the encoder has finished record `sequence - lag`. `afterCheckpoint`
  /// is the sequence of the last checkpoint submitted (0 for none): a checkpoint cannot be due
  /// again before the encoder has passed it. After a failure: false (the next submission throws).
  @inlinable
  func isCheckpointDue(after sequence: UInt64, afterCheckpoint lastCheckpoint: UInt64) -> Bool {
    // One lock when the encoder is far enough (the common case); otherwise wait and look again.
    while true {
      let (decision, semaphore, start) = shared.withLock { (s) -> (Bool?, DispatchSemaphore?, Bool) in
        // The earliest a checkpoint can become due is the record after the last one.
        guard sequence > s.lag, sequence - s.lag > lastCheckpoint, s.failure == nil else { return (false, nil, false) }
        let decisive = sequence - s.lag
        guard s.finished >= decisive else {
          let semaphore = DispatchSemaphore(value: 0)
          s.waiters.append((decisive, semaphore))
          return (nil, semaphore, Self.claimRun(&s, atLeast: 1))
        }
        return (s.dueSince.map { $0 > lastCheckpoint && $0 <= decisive } ?? false, nil, false)
      }
      if let decision { return decision }
      if start { scheduleRun() }
      semaphore?.wait()
    }
  }

  /// Checkpoint records skipped because they exceeded the sink's payload limit (so far).
  @inlinable
  var refusedCheckpoints: Int { encoderSide.withLock { $0.refusedCheckpoints } }

  /// Returns once every record submitted so far is in the sink (or, for a checkpoint over the
  /// sink's payload limit, skipped); throws the encoder's failure (now or from before).
  @inlinable
  func drain() throws {
    let target = shared.withLock { $0.submitted }
    wait(through: target)
    if let failure = shared.withLock({ $0.failure }) { throw failure }
  }

  /// Later submissions throw `error` (unless the encoder failed before: that failure stays
  /// first). Call it before the last ``drain()`` when the sink is being closed: a change racing
  /// the close is then either refused or written, never accepted and dropped.
  @inlinable
  func close(failingLaterWith error: any Error) {
    shared.withLock { if $0.closedError == nil { $0.closedError = error } }
  }

  /// Fails the encoder with a failure found outside it (the sink failed while the store flushed
  /// it): later submissions and drains throw it, and what is still queued is dropped. An
  /// earlier failure stays first.
  @inlinable
  func fail(with error: any Error) {
    shared.withLock { s in
      if s.failure == nil { s.failure = error }
      if !s.isRunning { s.pending.removeAll() }  // a run would drop it; none is coming
      Self.wakeWaiters(&s)
    }
  }

  /// Waits until the encoder has finished record `sequence` (or failed), starting it when it is
  /// idle with work pending.
  @inlinable
  func wait(through sequence: UInt64) {
    let (semaphore, start) = shared.withLock { (s) -> (DispatchSemaphore?, Bool) in
      guard s.finished < sequence, s.failure == nil else { return (nil, false) }
      let semaphore = DispatchSemaphore(value: 0)
      s.waiters.append((sequence, semaphore))
      return (semaphore, Self.claimRun(&s, atLeast: 1))
    }
    if start { scheduleRun() }
    semaphore?.wait()
  }

  /// Marks a run as scheduled when none is and at least `count` works are pending; the caller
  /// then schedules it (outside the lock).
  @inlinable
  static func claimRun(_ s: inout Shared, atLeast count: Int) -> Bool {
    guard !s.isRunning, s.pending.count >= count else { return false }
    s.isRunning = true
    return true
  }

  // MARK: The encoder's queue

  @inlinable
  func scheduleRun() {
    queue.async { [self] in run() }
  }

  /// Takes pending work in batches until none is left, then stops (the next submissions wake
  /// it again). Only one run is scheduled or running at a time (`isRunning`).
  @inlinable
  func run() {
    // The buffer handed back and forth with `pending`: a batch's array is emptied here (its
    // works released on this thread) and becomes the next `pending`, so no array is allocated
    // per batch.
    var spare: [Work] = []
    while true {
      guard let taken = shared.withLock({ (s) -> [Work]? in
        if s.pending.isEmpty || s.failure != nil {
          s.pending.removeAll()
          s.isRunning = false
          Self.wakeWaiters(&s)
          return nil
        }
        swap(&s.pending, &spare)
        return spare
      }) else { return }
      // Uniquely referenced from here on (consumed, and `spare` let go of), so emptying it
      // keeps its storage.
      spare = []
      var batch = consume taken
      let outcome = encoderSide.withLock { encode(batch, &$0) }
      batch.removeAll(keepingCapacity: true)
      spare = consume batch
      shared.withLock { s in
        s.finished = max(s.finished, outcome.finished)
        s.dueSince = outcome.dueSince
        if let failure = outcome.failure, s.failure == nil { s.failure = failure }
        Self.wakeWaiters(&s)
      }
    }
  }

  /// Encodes and writes `batch` in order; stops at the first failure (the rest is dropped).
  /// Returns the last record finished and where the checkpoint rule stands after it.
  @inlinable
  func encode(_ batch: [Work], _ e: inout EncoderSide)
    -> (finished: UInt64, dueSince: UInt64?, failure: (any Error)?)
  {
    var finished: UInt64 = 0
    for work in batch {
      switch work {
      case .forgetCurrentContents(let events):
        e.codec.forgetCurrentContents(changedBy: events)
      case .record(let content, let sequence):
        finished = sequence
        // The store numbered the record when it submitted it, counting the checkpoints this
        // encoder later skipped; the stream (and an error naming a record) counts only the
        // records written, as a store encoding on its own thread does.
        let streamSequence = sequence - UInt64(e.refusedCheckpoints)
        let record: HistoryRecord
        // A checkpoint resets the tables; kept to undo that if the sink refuses it.
        let beforeCheckpoint: HistoryCodec<Section, Item>?
        if case .checkpoint = content { beforeCheckpoint = e.codec } else { beforeCheckpoint = nil }
        do {
          record = try e.codec.encode(content, sequence: streamSequence)
        } catch {
          return (sequence, e.dueSince, HistoryError.invalidRecord(sequence: streamSequence, reason: error.description))
        }
        if let beforeCheckpoint, let limit = e.sink.maximumPayloadBytes, record.payload.count > limit {
          // A checkpoint over the sink's limit (a list of millions of items) is skipped, as the
          // synchronous store skips it, instead of failing every later change: the tables go
          // back to before it, and the next one is due after 8× its size in other records.
          // The records after it are numbered one lower than the store numbered them (see
          // `streamSequence`).
          e.codec = beforeCheckpoint
          e.spacing.restart(afterCheckpointOf: record.payload.count, written: false)
          e.dueSince = nil
          e.refusedCheckpoints += 1
          continue
        }
        do { try e.sink.write(record) } catch { return (sequence, e.dueSince, error) }
        if record.kind == .checkpoint {
          e.spacing.restart(afterCheckpointOf: record.payload.count, written: true)
          e.dueSince = nil
        } else {
          e.spacing.add(recordOf: record.payload.count)
          if e.dueSince == nil && e.spacing.isDue(budget: journalCheckpointBytes) { e.dueSince = sequence }
        }
      }
    }
    return (finished, e.dueSince, nil)
  }

  @inlinable
  static func wakeWaiters(_ s: inout Shared) {
    guard !s.waiters.isEmpty else { return }
    let failed = s.failure != nil
    s.waiters.removeAll { waiter in
      guard failed || waiter.through <= s.finished else { return false }
      waiter.semaphore.signal()
      return true
    }
  }
}
