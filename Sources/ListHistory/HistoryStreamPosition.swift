/// Where a store's record stream stands after its last record: what a store opened from its
/// head (``ListStore/init(resumingAt:latest:state:eventCount:position:codec:sink:configuration:encodingInBackground:source:)``)
/// needs to continue the stream as the store that wrote it would have — the intern tables the
/// next record refers to, the record sequence, and where the checkpoint rule stands.
///
/// A journal's read index keeps one (Journal/FORMAT.md §11, section 5).
///
/// ```swift
/// let position = try store._streamPosition()          // at close
/// let bytes = position?.encoded()
/// let back = try HistoryStreamPosition.decode(bytes!)   // at the next open
/// ```
@usableFromInline
package struct HistoryStreamPosition: Sendable, Equatable {
  /// The sequence of the stream's last record.
  @usableFromInline package var recordSequence: UInt64
  /// Encoded bytes of the records since the last checkpoint, and that checkpoint's size.
  @usableFromInline package var bytesSinceCheckpoint: Int
  @usableFromInline package var lastCheckpointBytes: Int
  /// The sequence of the last checkpoint record (0: none) and its state's item count.
  @usableFromInline package var lastCheckpointSequence: UInt64
  @usableFromInline package var lastCheckpointItems: Int?
  /// The first record after the last checkpoint at which a checkpoint became due, if any.
  @usableFromInline package var checkpointDueSince: UInt64?
  /// The head's redo child (nil: none).
  @usableFromInline package var redoChild: Int?
  /// The encoder's intern tables (``HistoryCodec/encodedEncoderTables()``).
  @usableFromInline package var encoderTables: [UInt8]

  package init(
    recordSequence: UInt64, bytesSinceCheckpoint: Int, lastCheckpointBytes: Int, lastCheckpointSequence: UInt64,
    lastCheckpointItems: Int?, checkpointDueSince: UInt64?, redoChild: Int?, encoderTables: [UInt8]
  ) {
    self.recordSequence = recordSequence
    self.bytesSinceCheckpoint = bytesSinceCheckpoint
    self.lastCheckpointBytes = lastCheckpointBytes
    self.lastCheckpointSequence = lastCheckpointSequence
    self.lastCheckpointItems = lastCheckpointItems
    self.checkpointDueSince = checkpointDueSince
    self.redoChild = redoChild
    self.encoderTables = encoderTables
  }

  /// `recordSequence | bytesSinceCheckpoint | lastCheckpointBytes | lastCheckpointSequence |
  /// lastCheckpointItems + 1 | checkpointDueSince + 1 | redoChild + 1 | tables…` (varints; 0 for
  /// the optional ones: none).
  @usableFromInline
  package func encoded() -> [UInt8] {
    var writer = _ByteWriter(capacity: 32 + encoderTables.count)
    writer.varint(recordSequence)
    writer.varint(bytesSinceCheckpoint)
    writer.varint(lastCheckpointBytes)
    writer.varint(lastCheckpointSequence)
    writer.varint(lastCheckpointItems.map { $0 + 1 } ?? 0)
    writer.varint(checkpointDueSince.map { $0 + 1 } ?? 0)
    writer.varint(redoChild.map { $0 + 1 } ?? 0)
    writer.raw(encoderTables)
    return writer.bytes
  }

  /// Reads what ``encoded()`` wrote (the tables are checked when a codec restores them).
  ///
  /// - Throws: ``HistoryCodecError/malformed(offset:reason:)`` naming the byte.
  @usableFromInline
  package static func decode(_ bytes: [UInt8]) throws(HistoryCodecError) -> HistoryStreamPosition {
    var reader = _ByteReader(bytes)
    let limit = Int(Int32.max)
    let recordSequence = try reader.varint()
    let bytesSince = try reader.int(max: Int.max, "bytes since the checkpoint")
    let lastBytes = try reader.int(max: Int.max, "checkpoint bytes")
    let lastSequence = try reader.varint()
    let items = try reader.int(max: Int.max, "checkpoint items")
    let dueSince = try reader.varint()
    let redo = try reader.int(max: limit, "redo child")
    guard lastSequence <= recordSequence, dueSince <= recordSequence + 1 else {
      throw reader.fail("checkpoint sequences past the last record \(recordSequence)")
    }
    return HistoryStreamPosition(
      recordSequence: recordSequence, bytesSinceCheckpoint: bytesSince, lastCheckpointBytes: lastBytes,
      lastCheckpointSequence: lastSequence, lastCheckpointItems: items == 0 ? nil : items - 1,
      checkpointDueSince: dueSince == 0 ? nil : dueSince - 1, redoChild: redo == 0 ? nil : redo - 1,
      encoderTables: Array(try reader.take(reader.remaining)))
  }
}
