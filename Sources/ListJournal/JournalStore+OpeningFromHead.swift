import Dispatch
import JournalFormat
import ListHistory
import ListLocking

extension JournalStore {
  /// A store opened from the journal's read index instead of a replay (see
  /// ``JournalHistoryLoading/whenNeeded``): the head's state and where the record stream stands
  /// come from the index, the older history from the journal when first needed (time travel
  /// from the nearest checkpoint record `reader` holds, and the history's replay). Nil when the
  /// index cannot serve: missing, stale (it must describe exactly the records `reader` read),
  /// damaged, written by a replay rather than a store, or not continuing the journal's last
  /// record. The caller then replays the journal. Inlinable so that the app's element types
  /// specialize the head's decoding, the travel and the replay (each runs two to four times
  /// slower unspecialized).
  ///
  /// - Complexity: the index file's read and checksum, the decoding of the head's state and of
  ///   the codec's tables; nothing per version of the history.
  @inlinable
  static func openFromHead(
    reader: JournalReader, codec: HistoryCodec<Section, Item>, sink: _JournalWriterSink, configuration: Configuration,
    encodingInBackground: Bool
  ) -> (store: Store, commits: Int, headMoves: Int, index: JournalReadIndex<Section, Item>)? {
    guard
      let index = try? JournalReadIndex.open(journal: reader, codec: codec, fileSystem: configuration.options.fileSystem),
      let bytes = try? index.file.section(_ReadIndexSection.position),
      let position = try? HistoryStreamPosition.decode(bytes),
      position.recordSequence + 1 == reader.nextSequence
    else { return nil }
    // The head's state and the codec's tables take about half of the open each and need
    // nothing of each other: on two cores, at once.
    let decoded = ListMutex<(head: ListSnapshot<Section, Item>?, codec: HistoryCodec<Section, Item>?)>((nil, nil))
    DispatchQueue.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        let head = try? index.snapshot()
        decoded.withLock { $0.head = head }
      } else {
        var continuing = codec
        let restored = (try? continuing.restoreEncoderTables(from: position.encoderTables)) != nil
        decoded.withLock { $0.codec = restored ? continuing : nil }
      }
    }
    guard case let (headState?, continuing?) = decoded.withLock({ $0 }) else { return nil }
    let settings = configuration.store
    let travel = JournalTimeTravel(reader: reader, codec: codec)
    let source = HistorySource<Section, Item>(
      info: { version in try? index.info(for: version) },
      events: { version in (try? index.events(of: version)) ?? nil },
      // A damaged section reads as unknown: redo from there loads the history.
      redoChild: { version in (try? index.redoChild(of: version)) ?? nil },
      // Nil on any failure (a dropped or lost version, damage): the loaded history then reports it.
      state: { version in try? travel.state(at: version) },
      replay: { () throws(HistoryError) -> Store in
        // The records the index described: appends since open lie past the reader's frames.
        do {
          return try _JournalReplay.replay(
            reader, codec: codec, sink: nil, checkpointInterval: settings.checkpointInterval,
            checkpointBudget: settings.checkpointBudget, journalCheckpointBytes: settings.journalCheckpointBytes,
            clock: settings.clock)
        } catch {
          throw .invalidRecord(sequence: 0, reason: "the history of '\(reader.path)' cannot be loaded: \(error)")
        }
      })
    let store = Store(
      resumingAt: index.head, latest: index.latestVersion, state: headState, eventCount: index.eventCount,
      position: position, codec: continuing, sink: sink, configuration: settings,
      encodingInBackground: encodingInBackground, source: source)
    return (store, index.commitCount, index.headMoveCount, index)
  }
}
