import ListLocking

/// A ``ListStore`` backed by a zstd journal file: every commit, undo, redo and checkout is
/// appended to the journal before it becomes visible, and reopening the file restores the whole
/// history — every version and branch, the head and the redo memory.
///
/// Work with the list through ``store`` (transactions, undo/redo, time travel, observers). The
/// journal adds durability: a commit is *durable* once its record has reached stable storage,
/// which depends on the durability mode (`.strict`: before the commit returns; `.grouped`: within
/// a few milliseconds; `.relaxed`: at ``sync()`` or ``close()``). Acknowledge a commit to a user
/// only once ``durableVersion`` has reached it — or call ``makeDurable(through:)``. Opened with
/// `defersWrites`, the journal holds records back and writes them together at ``flush()`` (see
/// ``JournalStoreConfiguration/defersWrites``). Settings come as a ``JournalStoreConfiguration``
/// (``open(at:codec:configuration:)``) or as arguments.
///
/// ```swift
/// let journal = try JournalStore<TestSection, TestItem>.open(///   at: "/tmp/list.journal",
///   configuration: .init(durability: .grouped))
/// if journal.recovery.tornTailBytes > 0 { print("dropped a torn tail") }
/// try journal.store.transaction(label: "Add Fruit") { tx in
///     try tx.appendSections([TestSection("Fruit")])
///     try tx.appendItems([TestItem("Apple")])
/// }
/// let version = journal.store.head
/// try journal.makeDurable(through: version)      // now print "committed \(version)"
/// try journal.close()
/// ```
///
/// Failure model: a failed append (a write or `fdatasync` error) fails the commit that caused it
/// and leaves the store unchanged; the writer then stops for good (it never retries a failed
/// sync), so every later change fails too — reopen the journal to continue from what is on
/// disk. With `.grouped`/`.relaxed`, commits already visible but not yet durable when the
/// writer fails are never reported durable. With `defersWrites`, writes (and with `.relaxed`
/// the encoding of records) fail on a background queue: the next change, ``flush()``,
/// ``sync()`` or ``close()`` reports the failure.
///
/// Opening a journal that was closed cleanly starts from its read index (the head's state and
/// where the record stream stands) and reads the older history from the journal only when
/// undo, redo, checkout or an older version first needs it (``JournalHistoryLoading``); any
/// other journal is replayed at open.
///
/// - Complexity: opening from the read index: O(the file's chunk headers) checksum work plus the
///   head's state; otherwise, and at the first read of older history, a replay (O(events)).
///   Each change costs its encoding plus the durability mode's I/O.
public final class JournalStore<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Store = ListStore<Section, Item>

  /// The list and its history. Every change made through it is journaled.
  public let store: Store
  /// The journal's path.
  public let path: String
  /// What opening found at the end of the file: a torn tail (cut-off or garbage bytes after the
  /// last complete commit) is dropped and reported here.
  public let recovery: JournalRecoveryReport
  /// The durability mode the journal was opened with.
  public let durability: JournalDurability
  @usableFromInline let writer: JournalWriter
  @usableFromInline let tracker: _DurabilityTracker
  @usableFromInline let sink: _JournalWriterSink
  /// The codec as the caller gave it (fresh tables): the read index's streams are encoded
  /// with a copy of it.
  @usableFromInline let codec: HistoryCodec<Section, Item>
  /// Commit and head-move records the journal held when it was opened.
  @usableFromInline let openedRecords: (commits: Int, headMoves: Int)
  /// The read index the store was opened from (nil after a replay): its version table, which
  /// describes the versions up to the opening, is extended when the index is written again.
  @usableFromInline let openedIndex: JournalReadIndex<Section, Item>?

  @inlinable
  init(
    store: Store, path: String, writer: JournalWriter, tracker: _DurabilityTracker, sink: _JournalWriterSink,
    durability: JournalDurability, codec: HistoryCodec<Section, Item>, openedRecords: (commits: Int, headMoves: Int),
    openedIndex: JournalReadIndex<Section, Item>? = nil
  ) {
    self.openedIndex = openedIndex
    self.store = store
    self.path = path
    self.writer = writer
    self.tracker = tracker
    self.sink = sink
    self.recovery = writer.recovery
    self.durability = durability
    self.codec = codec
    self.openedRecords = openedRecords
  }

  /// Creates the journal at `path` (when missing and the configuration's `createIfMissing`) or
  /// opens it, recovering a torn tail, replays it into a store and attaches the journal so new
  /// changes are appended.
  ///
  /// ```swift
  /// var configuration = JournalStore<String, Row>.Configuration(durability: .strict)
  /// configuration.store.checkpointBudget = .bytes(32 << 20)
  /// let journal = try JournalStore<String, Row>.open(at: path, configuration: configuration)
  /// ```
  /// - Parameters:
  ///   - codec: the encoding of the app's elements; ``HistoryCodec/init()`` for `Codable` ones
  ///     (``open(at:configuration:)``).
  ///   - configuration: durability, file options, deferred writes, the store's checkpoints and
  ///     clock (``JournalStoreConfiguration``).
  /// - Throws: ``JournalStoreError/journal(_:)`` (locked, corrupted mid-file, I/O) or
  ///   ``JournalStoreError/invalidRecord(offset:sequence:version:reason:)``.
  /// - Complexity: O(file size) verification, plus the head's state from the read index
  ///   (``JournalHistoryLoading/whenNeeded``) or an O(events · log n) replay.
  @inlinable
  public static func open(
    at path: String, codec: HistoryCodec<Section, Item>, configuration: Configuration = Configuration()
  ) throws(JournalStoreError) -> JournalStore {
    try open(at: path, codec: codec, configuration: configuration, progress: nil)
  }

  /// ``open(at:codec:configuration:)`` with the codec for `Codable` elements.
  ///
  /// ```swift
  /// let journal = try JournalStore<String, Row>.open(at: path, configuration: .init(durability: .relaxed))
  /// ```
  @inlinable
  public static func open(at path: String, configuration: Configuration = Configuration()) throws(JournalStoreError)
    -> JournalStore
  where Section: Codable, Section.ID: Codable, Item: Codable, Item.ID: Codable {
    try open(at: path, codec: HistoryCodec(), configuration: configuration)
  }

  /// ``open(at:codec:configuration:)``, telling `progress` (records read, records in the
  /// journal) as the replay goes, as ``JournalHistory``'s open does: for a tool's progress bar.
  @inlinable
  package static func open(
    at path: String, codec: HistoryCodec<Section, Item>, configuration: Configuration,
    progress: ((_ done: Int, _ total: Int) -> Void)?
  ) throws(JournalStoreError) -> JournalStore {
    let durability = configuration.durability
    let tracker = _DurabilityTracker(onDurable: configuration.onDurable)
    var options = configuration.options
    options.durability = durability
    options.onDurable = { [weak tracker] sequence in tracker?.advance(toSequence: sequence) }
    let writer: JournalWriter
    do {
      writer = try JournalWriter.open(
        at: path, options: options, createIfMissing: configuration.createIfMissing, keepingReader: true)
    } catch {
      throw .journal(error)
    }
    do throws(JournalStoreError) {
      // The file as the writer verified it (a second pass over every chunk otherwise).
      let reader: JournalReader
      if let opened = writer.takeOpeningReader() {
        reader = opened
      } else {
        do { reader = try JournalReader.open(at: path, limits: options.limits, fileSystem: options.fileSystem) } catch {
          throw JournalStoreError.journal(error)
        }
      }
      let sink = _JournalWriterSink(writer: writer, tracker: tracker, defersWrites: configuration.defersWrites)
      // Append only the encodings the file's header announces (a 1.0 file stays readable by
      // older readers).
      var appending = codec
      appending.encoderFormatMinor = min(appending.encoderFormatMinor, writer.formatMinor)
      // Deferred relaxed writes promise nothing at commit time, so the encoding of their
      // records moves off the committing thread too. (Not with `.strict` or `.grouped`: their
      // `onDurable` may run on the background writer, which must never wait for the store.)
      let encodingInBackground = configuration.defersWrites && durability == .relaxed
      if configuration.historyLoading == .whenNeeded,
        let opened = openFromHead(
          reader: reader, codec: appending, sink: sink, configuration: configuration,
          encodingInBackground: encodingInBackground)
      {
        tracker.start(durableVersion: opened.store.latestVersion, durableSequence: writer.durableSequence)
        return JournalStore(
          store: opened.store, path: path, writer: writer, tracker: tracker, sink: sink, durability: durability,
          codec: codec, openedRecords: (opened.commits, opened.headMoves), openedIndex: opened.index)
      }
      let counter = _KindCounter()
      let store = try _JournalReplay.replay(
        reader, codec: appending, sink: sink, checkpointInterval: configuration.store.checkpointInterval,
        checkpointBudget: configuration.store.checkpointBudget,
        journalCheckpointBytes: configuration.store.journalCheckpointBytes,
        encodingInBackground: encodingInBackground, clock: configuration.store.clock,
        counter: counter, onProgress: progress)
      tracker.start(durableVersion: store.latestVersion, durableSequence: writer.durableSequence)
      return JournalStore(
        store: store, path: path, writer: writer, tracker: tracker, sink: sink, durability: durability, codec: codec,
        openedRecords: (counter.commits, counter.headMoves))
    } catch {
      try? writer.close()
      throw error
    }
  }

  // MARK: Durability

  /// The newest version whose commit record is known to be on stable storage (versions are
  /// durable in creation order). Versions that were already in the file when it was opened
  /// count as durable.
  @inlinable
  public var durableVersion: Version { tracker.durableVersion }

  /// Whether the commit that created `version` is on stable storage.
  @inlinable
  public func isDurable(_ version: Version) -> Bool { version <= tracker.durableVersion }

  /// Returns once the commit of `version` (and everything before it) is on stable storage,
  /// syncing the file if needed: free in `.strict`, at most one `fdatasync` otherwise.
  ///
  /// ```swift
  /// try journal.store.appendItems([TestItem("Pear")])
  /// try journal.makeDurable(through: journal.store.head)
  /// print("committed \(journal.store.head.rawValue)")
  /// ```
  /// - Throws: ``JournalStoreError/journal(_:)`` when the sync fails (the writer is then closed).
  @inlinable
  public func makeDurable(through version: Version) throws(JournalStoreError) {
    if isDurable(version) { return }
    try sync()
  }

  /// Writes the records held back by `defersWrites` to the journal (one chunk, as the
  /// durability mode writes it: in the page cache with `.relaxed`, synced with `.strict`) and
  /// waits for the batches the background writer has not written yet: when it returns, every
  /// change made so far is in the file. A no-op without held-back records. Safe to call from
  /// any thread, while other threads commit.
  ///
  /// ```swift
  /// let journal = try TextJournal.open(at: path, configuration: .init(durability: .relaxed, defersWrites: true))
  /// for line in lines { try journal.store.appendItems([TestItem(line)]) }
  /// try journal.flush()      // every change above is in the file now
  /// ```
  /// - Throws: ``JournalStoreError/journal(_:)`` when the write fails or a background write
  ///   failed before (the writer is then closed; every later `flush()` throws it too);
  ///   ``JournalStoreError/history(_:)`` when a record could not be encoded in the background
  ///   (`.relaxed` with `defersWrites`: the records before it are written first).
  /// - Complexity: O(held-back bytes) plus one write (and one `fdatasync` with `.strict`),
  ///   plus the wait for at most four background batches.
  @inlinable
  public func flush() throws(JournalStoreError) {
    try writeQueued { () throws(JournalError) in try sink.flush() }
  }

  /// Waits until the background encoder (if any) has handed every change so far to the sink,
  /// then runs `writeSink` (the sink's flush or close). The sink is written even after an
  /// encoding failure — the records encoded before the failed one are a complete run and
  /// belong in the file — and that failure is thrown afterwards. A sink failure also fails the
  /// encoder, so no change queued for it is accepted and dropped.
  @inlinable
  func writeQueued(_ writeSink: () throws(JournalError) -> Void) throws(JournalStoreError) {
    let drained = Result { () throws(JournalStoreError) in
      do { try store._drainRecords() } catch {
        switch error {
        case let error as JournalError: throw .journal(error)
        case let error as HistoryError: throw .history(error)
        default: throw .unsupported("\(error)")
        }
      }
    }
    do { try writeSink() } catch {
      store._failRecords(with: error)
      throw .journal(error)
    }
    try drained.get()
  }

  /// Writes anything buffered and makes every change so far durable.
  @inlinable
  public func sync() throws(JournalStoreError) {
    try flush()
    do { try writer.sync() } catch { throw .journal(error) }
  }

  /// Makes everything durable, ends the zstd frame and releases the writer lock. Later changes
  /// through ``store`` fail with ``JournalError/writerClosed(cause:)``. Idempotent. With
  /// `defersWrites` it first writes what is held back and waits for the background writer,
  /// which has stopped when it returns; after a failed background write it throws that
  /// failure (every time).
  ///
  /// A clean close then writes the journal's read index (`<path>.index`, see
  /// ``JournalReadIndex``) unless `options.writesReadIndex` is off or the index there already
  /// describes the journal. That is best effort: a failure to write it is ignored (readers
  /// replay the journal instead), and it never touches the journal.
  @inlinable
  public func close() throws(JournalStoreError) {
    // Only a writer that has not failed holds exactly what the store shows.
    let wasOpen = !writer.isClosed
    // Held-back records first; if they cannot be written the writer is closed by the failure.
    let flushed = Result { () throws(JournalStoreError) in
      // Refuse later changes first, then write what was queued: a change racing the close is
      // refused or written, never accepted and dropped.
      store._closeRecords(failingLaterWith: JournalError.writerClosed(cause: "closed"))
      try writeQueued { () throws(JournalError) in try sink.close() }
    }
    do { try writer.close() } catch { throw .journal(error) }
    try flushed.get()
    if wasOpen { writeReadIndex() }
  }

  /// Writes the read index after a clean close, ignoring any failure. The store is final by
  /// now: the writer is closed, so a change racing the close has either reached the file
  /// before it (and the store, whose lock every read here takes) or failed.
  @inlinable
  func writeReadIndex() {
    let options = writer.options
    guard options.writesReadIndex else { return }
    let prefix = writer.prefix
    let indexPath = JournalReadIndexFile.path(forJournal: path)
    // Opened and closed without a change: an index that describes the file stays.
    if let existing = try? JournalReadIndexFile.read(at: indexPath, fileSystem: options.fileSystem),
      existing.journal == prefix
    {
      return
    }
    try? _ReadIndexWriter.write(
      of: store, codec: codec, prefix: prefix, journalPath: path,
      commitCount: openedRecords.commits + sink.commitRecords.withLock { $0 },
      headMoveCount: openedRecords.headMoves + sink.headMoveRecords.withLock { $0 },
      previous: openedIndex, fileSystem: options.fileSystem)
  }

  /// Whether the writer has stopped (closed, or after a failed write or sync).
  @inlinable
  public var isClosed: Bool { writer.isClosed }
}
