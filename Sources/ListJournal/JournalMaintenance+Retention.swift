import JournalFormat

extension JournalMaintenance {
  /// Recompresses the journal at `path` at `level` and drops the history `retention` does not
  /// keep (see ``JournalRetention``), atomically: a temporary file is written, replayed and
  /// checked against the original (same latest version, head and head state), synced and
  /// renamed over it, so a crash leaves the old journal or the new one. The new journal starts
  /// with a gap record (Journal/FORMAT.md §4.1, reason *retention*) and a checkpoint of the
  /// first kept version; the records after the cut are re-encoded up to the next checkpoint and
  /// copied from there on.
  ///
  /// ```swift
  /// let report = try JournalMaintenance.compact(at: path, keeping: .since(timestamp: lastMonth))
  /// print("dropped \(report.droppedVersions) versions; history starts at \(report.keptFrom)")
  /// ```
  /// - Throws: ``JournalStoreError/retentionDropsHead(head:keptFrom:)`` when the head is not in
  ///   the kept history (it is on a branch that left it before the cut); `.journal` when a writer
  ///   holds the journal or it is damaged; ``JournalStoreError/replicaJournal(path:)`` for a
  ///   replica journal, which keeps every commit it exchanged.
  /// - Complexity: a replay of the whole journal, then the re-encoding of the kept records up to
  ///   the next checkpoint, the recompression of the rest, and a replay of what was kept.
  @inlinable
  public static func compact<Section, Item>(
    at path: String, level: Int32 = 19, keeping retention: JournalRetention, codec: HistoryCodec<Section, Item>,
    options: JournalOptions = JournalOptions()
  ) throws(JournalStoreError) -> JournalRetentionReport {
    var plan: _RetentionPlan<Section, Item>?
    do {
      let compaction = try JournalCompactor.rewrite(at: path, level: level, options: options) { reader, emit in
        let history = try JournalHistory.open(reader: reader, codec: codec, progress: nil)
        let made = try _RetentionPlan(retention, of: history.store)
        plan = made
        try made.write(reader, codec: codec, emit: emit)
      } verify: { rewritten in
        guard let plan else { return }
        let kept = try JournalHistory.open(reader: rewritten, codec: codec, progress: nil)
        try plan.check(kept.store, path: path)
      }
      return JournalRetentionReport(
        compaction: compaction, keptFrom: Version(plan?.keptFrom ?? 0), droppedVersions: plan?.droppedVersions ?? 0)
    } catch let error as JournalStoreError {
      throw error
    } catch let error as JournalError {
      throw .journal(error)
    } catch {
      throw .unsupported("\(error)")
    }
  }

  /// ``compact(at:level:keeping:codec:options:)`` with generic element values (any app's journal).
  @inlinable
  public static func compact(
    at path: String, level: Int32 = 19, keeping retention: JournalRetention
  ) throws(JournalStoreError) -> JournalRetentionReport {
    try compact(
      at: path, level: level, keeping: retention, codec: HistoryCodec<JournalValueElement, JournalValueElement>.generic())
  }
}

/// Where a retention cut goes in a replayed history, and how the rewrite writes it.
@usableFromInline
struct _RetentionPlan<Section: ListElement, Item: ListElement> {
  /// The first version whose commit is kept (`latest + 1` when only the head's state is); nil
  /// when nothing is dropped.
  @usableFromInline let firstKeptCommit: Int?
  /// The version whose state starts the kept history (the parent of `firstKeptCommit`, or the head).
  @usableFromInline let keptFrom: Int
  @usableFromInline let keptState: ListSnapshot<Section, Item>
  @usableFromInline let droppedVersions: Int
  @usableFromInline let latest: Int
  @usableFromInline let head: Int
  @usableFromInline let headState: ListSnapshot<Section, Item>

  @inlinable
  init(_ retention: JournalRetention, of store: ListStore<Section, Item>) throws(JournalStoreError) {
    latest = store.latestVersion.rawValue
    head = store.head.rawValue
    headState = store.snapshot
    let alreadyKeptFrom = store.keptHistoryStart?.rawValue ?? 0
    var cut: Int?
    switch retention {
    case .everything: cut = nil
    case .lastVersions(let count):
      guard count >= 1 else { throw .unsupported("keeping the last \(count) versions: keep at least 1") }
      cut = latest - count + 1
    case .since(let timestamp):
      cut = latest == 0 ? nil : (1...latest).first { version in
        store.info(for: Version(version)).map { $0.timestamp >= timestamp } ?? false
      } ?? latest + 1
    }
    // The first version from the cut on whose commit is in the journal (lost and dropped ones
    // have none); past the newest, only the head's state is kept.
    if let start = cut, start >= 2 {
      cut = (start...max(start, latest)).first { store.info(for: Version($0))?.parent != nil } ?? latest + 1
    } else {
      cut = nil
    }
    guard let firstKept = cut, firstKept >= 2, firstKept > alreadyKeptFrom + 1 else {
      firstKeptCommit = nil
      keptFrom = alreadyKeptFrom
      keptState = ListSnapshot()
      droppedVersions = 0
      return
    }
    let from = firstKept <= latest ? store.info(for: Version(firstKept))!.parent!.rawValue : head
    // The head must be in what is kept, or the journal would open on a dropped version: its
    // ancestors from the first kept commit on lead to the kept start (or to version 0, which
    // is never dropped).
    var cursor = head
    while cursor >= firstKept, let parent = store.info(for: Version(cursor))?.parent { cursor = parent.rawValue }
    guard cursor == from || cursor == 0 else { throw .retentionDropsHead(head: Version(head), keptFrom: Version(from)) }
    firstKeptCommit = firstKept
    keptFrom = from
    do { keptState = try store.state(at: Version(from)) } catch { throw .history(error) }
    droppedVersions = (1..<firstKept).count { $0 != from && store.info(for: Version($0)) != nil }
  }

  /// Emits the rewritten journal: unchanged when nothing is dropped; otherwise the records
  /// other than history before the cut, the gap and the checkpoint of `keptFrom`, then the
  /// records from the first kept commit on, re-encoded until the first checkpoint among them
  /// (their intern tables referred to dropped records) and copied from there on.
  @inlinable
  func write(
    _ reader: JournalReader, codec: HistoryCodec<Section, Item>, emit: (JournalRecord) throws(JournalError) -> Void
  ) throws {
    var iterator = reader.makeIterator()
    guard let firstKeptCommit else {
      while let record = try iterator.next() { try emit(record) }
      return
    }
    var decoder = codec
    decoder.reset()
    var encoder = codec
    encoder.encoderFormatMinor = min(encoder.encoderFormatMinor, reader.formatMinor)
    encoder.reset()
    func decode(_ record: JournalRecord, _ kind: HistoryRecord.Kind) throws(JournalStoreError) -> HistoryRecordContent<Section, Item> {
      let history = HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload)
      do { return try decoder.decode(history, checkpointState: false) } catch {
        throw .invalidRecord(
          offset: _JournalReplay.offset(ofSequence: record.sequence, in: reader), sequence: record.sequence,
          version: record.version, reason: error.description)
      }
    }
    func encode(_ content: HistoryRecordContent<Section, Item>, version: UInt64) throws(JournalStoreError) -> HistoryRecord {
      do { return try encoder.encode(content, sequence: 0) } catch {
        throw .unsupported("cannot encode the record of version \(version) again: \(error)")
      }
    }

    var firstKept: JournalRecord?
    while let record = try iterator.next() {
      guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else {
        try emit(record)  // not history: kept wherever it was
        continue
      }
      if kind == .commit && record.version == UInt64(firstKeptCommit) {
        firstKept = record
        break
      }
      _ = try decode(record, kind)
    }
    let last = firstKeptCommit - 1
    for content: HistoryRecordContent<Section, Item> in [
      .gap(HistoryGap(latestVersion: Version(last), lostCount: last, reason: .retention)),
      .checkpoint(HistoryCheckpoint(head: Version(keptFrom), latestVersion: Version(last), snapshot: keptState)),
    ] {
      let record = try encode(content, version: UInt64(last))
      try emit(JournalRecord(kind: JournalRecord.Kind(rawValue: record.kind.rawValue), version: record.version, payload: record.payload))
    }
    var copying = false
    var next = firstKept
    while let record = next {
      next = try iterator.next()
      if !copying, let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) {
        if kind == .checkpoint {
          copying = true
        } else {
          let encoded = try encode(try decode(record, kind), version: record.version)
          try emit(JournalRecord(kind: record.kind, version: encoded.version, payload: encoded.payload))
          continue
        }
      }
      try emit(record)
    }
  }

  /// Refuses a rewrite whose replay does not end where the original did.
  @inlinable
  func check(_ kept: ListStore<Section, Item>, path: String) throws(JournalStoreError) {
    var replayed = kept.snapshot
    replayed.clearMarkers()
    var original = headState
    original.clearMarkers()
    guard kept.latestVersion.rawValue == latest, kept.head.rawValue == head, replayed == original else {
      throw .unsupported(
        "the rewrite of '\(path)' does not replay to the original's head (v\(head) of v\(latest)); the journal is unchanged")
    }
    if firstKeptCommit != nil, kept.keptHistoryStart?.rawValue != keptFrom {
      throw .unsupported("the rewrite of '\(path)' does not start its history at v\(keptFrom); the journal is unchanged")
    }
  }
}
