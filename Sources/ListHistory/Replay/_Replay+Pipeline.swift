import Dispatch
import ListState

extension _Replay {
  /// Replays the rest of `iterator` on two threads: this one reads and decodes records (the
  /// codec's tables make decoding sequential), a worker folds them in order, in batches of
  /// `batchRecords` records, or fewer that hold at least `batchEvents` events, handed over
  /// through a ``_BatchHandOff``.
  ///
  /// The outcome is the single-threaded replay's: records are applied in order, and the first
  /// failing record in stream order is the one reported — a fold failure stops the decoding,
  /// and a decoding failure is reported only after every record before it was folded.
  @inlinable
  func replayPipelined<Records: IteratorProtocol<HistoryRecord>>(
    _ iterator: inout Records, codec: inout HistoryCodec<Section, Item>, batchRecords: Int, batchEvents: Int
  ) throws(HistoryError) {
    // Without contents to keep for an encoder, the decoding thread hands work to the folding
    // one: the remembered items (filled in from the state) and the page faults of the history's
    // appends. A replay that keeps contents stays as it was: storing each updated content there
    // releases the one before (a cold object), and that bounds its decoding thread.
    let handsWorkToTheFold = codec.decodingMode != .keepingContents
    if handsWorkToTheFold { codec.decodingMode = .leavingRememberedItemsToTheState }
    defer { if handsWorkToTheFold { codec.decodingMode = .droppingContents } }
    let handOff = _BatchHandOff<_ReplayBatch<Section, Item>>(
      capacity: ListStore<Section, Item>.ReplayOptions.pendingBatches)
    let prefaulter = _AppendPrefaulter()
    if handsWorkToTheFold { prefaulter.publish(appendsOf: state.graph) }
    var pageRequests = _AppendPageRequests()
    let folded = DispatchGroup()
    folded.enter()
    DispatchQueue.global().async { [self] in
      defer { folded.leave() }
      while var batch = handOff.take() {
        // Each record is moved out of the batch (swapped with a placeholder), so each commit's
        // events keep a single owner for the history to take over. (Reversing the batch to pop
        // records off its end copied every record through the swaps.)
        var firstEvent = 0
        prefetcher.reset()
        for index in batch.records.indices {
          var record = _ReplayedRecord<Section, Item>.placeholder
          swap(&record, &batch.records[index])
          let eventCount = record.bufferedEvents ?? 0
          do throws(HistoryError) {
            try apply(consume record, bufferedEvents: &batch.events, from: firstEvent, itemsFromState: &batch.itemsFromState)
          } catch {
            failure = error
            handOff.stop()
            return
          }
          firstEvent += eventCount
        }
        assert(batch.itemsFromState.next == batch.itemsFromState.entries.count, "a stand-in left unfilled")
        batch.removeAll()
        handOff.recycle(consume batch)
        if handsWorkToTheFold { prefaulter.publish(appendsOf: state.graph) }
      }
    }
    var decodeFailure: HistoryError?
    var batch = _ReplayBatch<Section, Item>()
    batch.records.reserveCapacity(batchRecords)
    var isStopped = false
    while let record = iterator.next() {
      do { try batch.append(decoding: record, with: &codec) } catch {
        decodeFailure = error
        break
      }
      if batch.records.count == batchRecords || batch.events.count >= batchEvents {
        let full = batch
        batch = handOff.spareBatch() ?? _ReplayBatch()
        batch.records.reserveCapacity(batchRecords)
        guard handOff.put(consume full) else {
          isStopped = true
          break
        }
        if handsWorkToTheFold { pageRequests.request(prefaulter.regions()) }
      }
    }
    if !isStopped, !batch.records.isEmpty { _ = handOff.put(consume batch) }
    handOff.finish()
    folded.wait()
    if let failure { throw failure }
    if let decodeFailure { throw decodeFailure }
  }
}
