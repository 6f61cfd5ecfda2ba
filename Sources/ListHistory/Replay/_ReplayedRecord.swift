import ListState

/// A decoded record with what a replay's bookkeeping needs of the raw one.
@usableFromInline
struct _ReplayedRecord<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var sequence: UInt64
  @usableFromInline var kind: HistoryRecord.Kind
  @usableFromInline var payloadBytes: Int
  @usableFromInline var content: HistoryRecordContent<Section, Item>
  /// For a commit decoded into a ``_ReplayBatch``: how many of the batch's buffered events are
  /// its own (its `events` are then empty). Nil when the commit holds its events itself.
  @usableFromInline var bufferedEvents: Int? = nil
  /// The replay work (``ListEvent/replayWeight``) of those buffered events. A remembered leaf's
  /// deletion weighs 1 before and after its stand-in is filled in.
  @usableFromInline var bufferedWeight = 0

  @inlinable
  init(
    sequence: UInt64, kind: HistoryRecord.Kind, payloadBytes: Int, content: HistoryRecordContent<Section, Item>,
    bufferedEvents: Int? = nil, bufferedWeight: Int = 0
  ) {
    self.sequence = sequence
    self.kind = kind
    self.payloadBytes = payloadBytes
    self.content = content
    self.bufferedEvents = bufferedEvents
    self.bufferedWeight = bufferedWeight
  }

  /// Decodes `record` with `codec` for ``_Replay/apply(_:)`` (a commit holding its own events).
  @inlinable
  init(decoding record: HistoryRecord, with codec: inout HistoryCodec<Section, Item>) throws(HistoryError) {
    do {
      self.init(
        sequence: record.sequence, kind: record.kind, payloadBytes: record.payload.count,
        content: try codec.decode(record, checkpointState: false))
    } catch {
      throw .invalidRecord(sequence: record.sequence, reason: error.description)
    }
  }

  /// The content, moved out (the record is consumed).
  @inlinable
  consuming func takeContent() -> HistoryRecordContent<Section, Item> { content }

  /// A record that owns nothing, to swap into a batch's place when its record is moved out.
  @inlinable
  static var placeholder: Self {
    Self(
      sequence: 0, kind: .headMove, payloadBytes: 0,
      content: .headMove(HistoryHeadMove(kind: .checkout, from: .initial, to: .initial, latestVersion: .initial, timestamp: 0)))
  }
}
