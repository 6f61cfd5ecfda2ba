import ListState
import ListHistory
import JournalFormat

/// The replica journal's record kinds and header, for other targets of this package that write
/// replica journals without holding a `ListReplica` (a sync server's list files).
package enum ReplicaJournalLayout {
  /// The header record's kind.
  package static var headerKind: JournalRecord.Kind { _ReplicaRecordKind.header }
  /// A commits record's kind.
  package static var commitsKind: JournalRecord.Kind { _ReplicaRecordKind.commits }
  /// A replica owner record's kind (a sync server's binding of a replica to its author).
  package static var ownerKind: JournalRecord.Kind { _ReplicaRecordKind.owner }

  /// An owner record's payload: the replica (u64), then the owner's UTF-8 bytes.
  package static func owner(replica: ReplicaID, owner: String) -> [UInt8] {
    var bytes: [UInt8] = []
    withUnsafeBytes(of: replica.rawValue.littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: Array(owner.utf8))
    return bytes
  }

  /// The replica and owner of an owner record, or nil when it is not one.
  package static func parseOwner(_ payload: [UInt8]) -> (replica: ReplicaID, owner: String)? {
    guard payload.count > 8, let owner = String(validating: payload[8...], as: UTF8.self) else { return nil }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(payload[index]) << UInt64(8 * index) }
    return (ReplicaID(rawValue: value), owner)
  }

  /// A header record's payload: `base` is a checkpoint payload as
  /// ``encodeBase(_:codec:)`` makes it.
  package static func header(replica: ReplicaID, listID: UInt64, base: [UInt8]) -> [UInt8] {
    var bytes = _ReplicaHeader.magic
    bytes.append(1)
    withUnsafeBytes(of: replica.rawValue.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: listID.littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: base)
    return bytes
  }

  /// The replica, list and base payload of a header record, or nil when it is not one.
  package static func parseHeader(_ payload: [UInt8]) -> (replica: ReplicaID, listID: UInt64, base: [UInt8])? {
    guard payload.count >= 21, Array(payload[0..<4]) == _ReplicaHeader.magic, payload[4] == 1 else { return nil }
    func word(_ at: Int) -> UInt64 {
      var value: UInt64 = 0
      for index in 0..<8 { value |= UInt64(payload[at + index]) << UInt64(8 * index) }
      return value
    }
    return (ReplicaID(rawValue: word(5)), word(13), Array(payload[21...]))
  }

  /// A base state as the header holds it: a checkpoint record's payload.
  @inlinable
  package static func encodeBase<Section, Item>(_ base: ListSnapshot<Section, Item>, codec: HistoryCodec<Section, Item>)
    throws(HistoryCodecError) -> [UInt8]
  {
    var codec = codec
    return try codec.encode(
      .checkpoint(HistoryCheckpoint(head: Version(0), latestVersion: Version(0), snapshot: base)), sequence: 1
    ).payload
  }

  /// Decodes what ``encodeBase(_:codec:)`` wrote.
  @inlinable
  package static func decodeBase<Section, Item>(_ bytes: [UInt8], codec: HistoryCodec<Section, Item>)
    throws(HistoryCodecError) -> ListSnapshot<Section, Item>
  {
    var codec = codec
    let record = HistoryRecord(kind: .checkpoint, sequence: 1, version: 0, payload: bytes)
    guard case .checkpoint(let checkpoint) = try codec.decode(record) else {
      throw .malformed(offset: 0, reason: "the base state is not a checkpoint")
    }
    return checkpoint.snapshot
  }
}
