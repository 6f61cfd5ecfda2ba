/// Builds and writes a journal's read index from a history that holds exactly the journal's
/// records (Journal/FORMAT.md §11).
@usableFromInline
enum _ReadIndexWriter {
  /// The index sections of `store`'s history: counters, the version table, the commits of the
  /// newest `recentVersions` versions and of the head's nearest `recentVersions` ancestors, a
  /// checkpoint of the head's state — each stream encoded with a fresh copy of `codec` — and,
  /// for a store that wrote the journal, where its record stream stands, and where redo goes
  /// from the indexed versions. `previous`: the index the store was opened from, whose version
  /// table is extended rather than rebuilt.
  ///
  /// - Complexity: O(versions) plus the encoding of the head's state and the indexed commits;
  ///   with `previous`, O(its table's bytes + versions since) instead of O(versions).
  @inlinable
  static func sections<Section, Item>(
    of store: ListStore<Section, Item>, codec: HistoryCodec<Section, Item>, commitCount: Int, headMoveCount: Int,
    recentVersions: Int = JournalReadIndex<Section, Item>.recentVersionLimit, previous: JournalReadIndex<Section, Item>? = nil
  ) throws(HistoryCodecError) -> [JournalReadIndexFile.Section] {
    let latest = store.latestVersion.rawValue
    let head = store.head.rawValue
    let (tableBytes, eventCount) = versionTable(of: store, latest: latest, previous: previous)
    func parent(of version: Int) -> Int { store.info(for: Version(version))?.parent?.rawValue ?? -1 }

    // Only versions whose events the store has at hand: one opened from its head and not
    // loaded would otherwise replay its history to write them.
    var indexedEvents: [Int: [ListEvent<Section, Item>]] = [:]
    if latest >= 1 {
      for version in max(1, latest - recentVersions + 1)...latest {
        if let events = store._eventsAtHand(of: Version(version)) { indexedEvents[version] = events }
      }
    }
    var cursor = head
    for _ in 0..<recentVersions where cursor > 0 {
      if indexedEvents[cursor] == nil {
        guard let events = store._eventsAtHand(of: Version(cursor)) else { break }
        indexedEvents[cursor] = events
      }
      cursor = parent(of: cursor)
    }
    var encoder = codec
    encoder.reset()
    var records: [(version: Int, payload: [UInt8])] = []
    records.reserveCapacity(indexedEvents.count)
    // Where redo goes from version 0 and the indexed versions, where the store knows it.
    var redoChildren: [(version: Int, redoChild: Int?)] = []
    for version in [0] + indexedEvents.keys.sorted() {
      if let child = store._redoChildAtHand(of: Version(version)) { redoChildren.append((version, child?.rawValue)) }
      guard version > 0 else { continue }
      let info = store.info(for: Version(version))!
      let events = indexedEvents[version]!
      let commit = HistoryCommit(
        version: Version(version), parent: info.parent!, timestamp: info.timestamp, label: info.label, events: events)
      records.append((version, try encoder.encode(.commit(commit), sequence: UInt64(records.count + 1)).payload))
    }

    var checkpointEncoder = codec
    checkpointEncoder.reset()
    let checkpoint = try checkpointEncoder.encode(
      .checkpoint(HistoryCheckpoint(head: store.head, latestVersion: store.latestVersion, snapshot: store.snapshot)),
      sequence: 1)

    let counters = _ReadIndexCounters(
      versionCount: latest + 1, head: head, eventCount: eventCount, commitCount: commitCount,
      headMoveCount: headMoveCount, codecMinor: Int(codec.encoderFormatMinor))
    var sections = [
      JournalReadIndexFile.Section(kind: _ReadIndexSection.counters, bytes: counters.encoded(), compressed: false),
      JournalReadIndexFile.Section(kind: _ReadIndexSection.versions, bytes: tableBytes),
      JournalReadIndexFile.Section(kind: _ReadIndexSection.recent, bytes: _ReadIndexRecords.encode(records)),
      JournalReadIndexFile.Section(kind: _ReadIndexSection.head, bytes: checkpoint.payload),
      JournalReadIndexFile.Section(kind: _ReadIndexSection.redoChildren, bytes: _ReadIndexRedoChildren.encode(redoChildren)),
    ]
    // Only a store that wrote the journal knows where its stream stands (a replay without a
    // sink keeps no encoder): without it, a store opening the journal replays it.
    if let position = store._streamPosition() {
      sections.append(JournalReadIndexFile.Section(kind: _ReadIndexSection.position, bytes: position.encoded()))
    }
    return sections
  }

  /// The encoded version table of `store` and its event count: the table of `previous` (an
  /// index the store was opened from, describing its first versions) extended by the versions
  /// since, or every version's facts read from the store.
  ///
  /// - Complexity: O(the previous table's bytes + versions since) with `previous`, else O(versions).
  @inlinable
  static func versionTable<Section, Item>(
    of store: ListStore<Section, Item>, latest: Int, previous: JournalReadIndex<Section, Item>?
  ) -> (bytes: [UInt8], eventCount: Int) {
    if let previous, previous.versionCount <= latest + 1,
      let bytes = try? previous.file.section(_ReadIndexSection.versions),
      let last = store.info(for: Version(previous.versionCount - 1)),
      var appender = try? _ReadIndexVersionTableAppender(
        encoded: bytes, count: previous.versionCount, lastMillis: _ReadIndexVersionTable.millis(last.timestamp),
        path: previous.path)
    {
      var eventCount = previous.eventCount
      for version in previous.versionCount..<(latest + 1) {
        let info = store.info(for: Version(version))!
        appender.append(
          parent: info.parent?.rawValue, millis: _ReadIndexVersionTable.millis(info.timestamp), label: info.label,
          eventCount: info.operationCount)
        eventCount += info.operationCount
      }
      return (appender.encoded(), eventCount)
    }
    var table = _ReadIndexVersionTable()
    table.parents.reserveCapacity(latest + 1)
    table.millis.reserveCapacity(latest + 1)
    table.labelIndexes.reserveCapacity(latest + 1)
    table.eventCounts.reserveCapacity(latest + 1)
    var labelIndexes: [String: Int32] = [:]
    var eventCount = 0
    for version in 0...latest {
      let info = store.info(for: Version(version))!
      var label: Int32 = -1
      if let text = info.label {
        if let known = labelIndexes[text] {
          label = known
        } else {
          label = Int32(table.labels.count)
          labelIndexes[text] = label
          table.labels.append(text)
        }
      }
      table.append(
        parent: info.parent?.rawValue, millis: _ReadIndexVersionTable.millis(info.timestamp), label: label,
        eventCount: info.operationCount)
      eventCount += info.operationCount
    }
    return (table.encoded(), eventCount)
  }

  /// Writes the read index of the journal at `journalPath`, whose records up to `prefix` are
  /// exactly `store`'s history (atomically: temporary file, `fsync`, rename).
  @inlinable
  static func write<Section, Item>(
    of store: ListStore<Section, Item>, codec: HistoryCodec<Section, Item>, prefix: JournalPrefix, journalPath: String,
    commitCount: Int, headMoveCount: Int, recentVersions: Int = JournalReadIndex<Section, Item>.recentVersionLimit,
    previous: JournalReadIndex<Section, Item>? = nil, fileSystem: any JournalFileSystem
  ) throws(JournalStoreError) {
    // The version table has no way to say "lost" (FORMAT.md §11): such a journal is replayed.
    guard !store._hasGap else {
      throw .unsupported("'\(journalPath)' has versions lost in a repair, which a read index cannot describe")
    }
    let sections: [JournalReadIndexFile.Section]
    do {
      sections = try self.sections(
        of: store, codec: codec, commitCount: commitCount, headMoveCount: headMoveCount, recentVersions: recentVersions,
        previous: previous)
    } catch {
      throw .unsupported("cannot write the read index of '\(journalPath)': \(error)")
    }
    do { try writeFile(sections, prefix: prefix, journalPath: journalPath, fileSystem: fileSystem) } catch {
      throw .journal(error)
    }
  }

  @usableFromInline
  static func writeFile(
    _ sections: [JournalReadIndexFile.Section], prefix: JournalPrefix, journalPath: String, fileSystem: any JournalFileSystem
  ) throws(JournalError) {
    let bytes = try JournalReadIndexFile.encode(journal: prefix, sections: sections)
    try JournalReadIndexFile.write(bytes, at: JournalReadIndexFile.path(forJournal: journalPath), fileSystem: fileSystem)
  }
}

extension JournalHistory {
  /// Writes the journal's read index (`<path>.index`) from this replayed history, so that
  /// later reads open through it (``JournalReadIndex``) instead of replaying: for a journal
  /// that has none, or whose index no longer matches. `codec` is the journal's (generic for
  /// any app's journal); the index then reads with any codec that reads the journal.
  ///
  /// ```swift
  /// let history = try JournalHistory.open(at: path)
  /// try history.writeReadIndex(codec: .generic())
  /// ```
  /// - Parameter recentVersions: how many of the newest versions (and of the head's nearest
  ///   ancestors) the index holds with their events: the versions it can show without a replay.
  /// - Throws: ``JournalStoreError/journal(_:)`` when the file cannot be written,
  ///   ``JournalStoreError/unsupported(_:)`` when a state cannot be encoded.
  /// - Complexity: O(versions) plus the encoding of the head's state.
  @inlinable
  public func writeReadIndex(
    codec: HistoryCodec<Section, Item>, recentVersions: Int = JournalReadIndex<Section, Item>.recentVersionLimit,
    fileSystem: any JournalFileSystem = POSIXFileSystem()
  ) throws(JournalStoreError) {
    try _ReadIndexWriter.write(
      of: store, codec: codec, prefix: reader.prefix, journalPath: path, commitCount: info.commitCount,
      headMoveCount: info.headMoveCount, recentVersions: max(0, recentVersions), fileSystem: fileSystem)
  }
}
