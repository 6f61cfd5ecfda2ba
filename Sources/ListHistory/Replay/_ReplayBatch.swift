import ListState

/// The records a pipelined replay hands from the decoding to the folding thread at once, with
/// the events of their commits in one buffer, in record order (see
/// ``_ReplayedRecord/bufferedEvents``).
///
/// Why one buffer: a commit of its own holds its events in an array of its own, which the
/// decoding thread allocated and the folding thread freed once the history had moved the events
/// out — an allocator round trip between two threads for every commit. A batch's buffer is
/// emptied and recycled instead (``_BatchHandOff/recycle(_:)``).
@usableFromInline
struct _ReplayBatch<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var records: [_ReplayedRecord<Section, Item>] = []
  @usableFromInline var events: [ListEvent<Section, Item>] = []
  /// The events of `events` decoded with a stand-in for a remembered item, in order, for the
  /// folding thread to fill in from its state (see `HistoryCodec.DecodingMode`).
  @usableFromInline var itemsFromState = _ItemsFromState<Item.ID>()

  @inlinable
  init(
    records: [_ReplayedRecord<Section, Item>] = [], events: [ListEvent<Section, Item>] = [],
    itemsFromState: _ItemsFromState<Item.ID> = _ItemsFromState<Item.ID>()
  ) {
    self.records = records
    self.events = events
    self.itemsFromState = itemsFromState
  }

  /// Decodes `record` with `codec` into the batch: a commit's events go to the shared buffer,
  /// its stand-ins to `itemsFromState`. A record that fails leaves the batch as it was.
  @inlinable
  mutating func append(decoding record: HistoryRecord, with codec: inout HistoryCodec<Section, Item>) throws(HistoryError) {
    let firstEvent = events.count
    // The decoder lists its stand-ins straight into the batch (the list swapped in and out: no
    // copy per record), by index in the batch's buffer.
    swap(&itemsFromState.entries, &codec.decoderTables.itemsFromState)
    defer { swap(&itemsFromState.entries, &codec.decoderTables.itemsFromState) }
    let firstStandIn = codec.decoderTables.itemsFromState.count
    do {
      let content = try codec.decode(record, checkpointState: false, appendingEventsTo: &events)
      let isCommit = record.kind == .commit
      records.append(
        _ReplayedRecord(
          sequence: record.sequence, kind: record.kind, payloadBytes: record.payload.count, content: content,
          bufferedEvents: isCommit ? events.count - firstEvent : nil,
          // Summed here, where the events were just written (in cache), and off the folding
          // thread, which bounds the replay.
          bufferedWeight: isCommit ? _HistoryGraph<Section, Item>.replayWeight(of: events, in: firstEvent..<events.count) : 0))
    } catch {
      // The events of a commit that failed halfway belong to no record.
      events.removeSubrange(firstEvent...)
      codec.decoderTables.itemsFromState.removeSubrange(firstStandIn...)
      throw .invalidRecord(sequence: record.sequence, reason: error.description)
    }
  }

  /// Empties the batch, keeping its storage.
  @inlinable
  mutating func removeAll() {
    records.removeAll(keepingCapacity: true)
    events.removeAll(keepingCapacity: true)
    itemsFromState.removeAll()
  }
}
