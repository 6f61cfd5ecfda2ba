import ListState
import ListHistory
import JournalFormat
import ListLocking

/// The record kinds of a replica journal (a journal file in the same container format, told
/// apart by its first record; see `Journal/FORMAT.md` §12).
@usableFromInline
enum _ReplicaRecordKind {
  /// The replica's identity, its list's identity and the list's base state.
  @usableFromInline static let header = JournalRecord.Kind(rawValue: 5)
  /// Commits the replica made or received, as `HistoryCodec.encode(replicaCommits:)` writes them.
  @usableFromInline static let commits = JournalRecord.Kind(rawValue: 6)
  /// A replica identity and the owner a sync server bound it to (other readers skip it).
  @usableFromInline static let owner = JournalRecord.Kind(rawValue: 8)
}

/// A replica's journal file: every commit it makes or receives is appended (and, for received
/// batches, synced) before it takes effect, so a replica reopened after a crash holds every
/// commit it acknowledged and reapplies nothing twice (commits are identified, not counted).
@usableFromInline
final class _ReplicaJournal<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline let path: String
  @usableFromInline let writer: JournalWriter
  @usableFromInline let codec: ListMutex<HistoryCodec<Section, Item>>

  @inlinable
  init(path: String, writer: JournalWriter, codec: HistoryCodec<Section, Item>) {
    self.path = path
    self.writer = writer
    self.codec = ListMutex(codec)
  }

  /// Appends commits as one record; `sync` waits until they are durable.
  @inlinable
  func write(_ commits: [ReplicaCommit<Section, Item>], holding: Int, sync: Bool = false) throws(ReplicaError) {
    let payload: [UInt8]
    do {
      payload = try codec.withLock { codec throws(HistoryCodecError) in try codec.encode(replicaCommits: commits) }
    } catch {
      throw .journal(path: path, reason: "cannot encode commits: \(error)")
    }
    do {
      _ = try writer.append(JournalRecord(kind: _ReplicaRecordKind.commits, version: UInt64(holding), payload: payload))
      if sync { try writer.sync() }
    } catch {
      throw .journal(path: path, reason: "\(error)")
    }
  }

  @inlinable
  func sync() throws(ReplicaError) {
    do { try writer.sync() } catch { throw .journal(path: path, reason: "\(error)") }
  }

  @inlinable
  func close() throws(ReplicaError) {
    do { try writer.close() } catch { throw .journal(path: path, reason: "\(error)") }
  }
}

/// The header record's payload: magic, layout version, replica, list, then the base state as a
/// checkpoint payload.
@usableFromInline
enum _ReplicaHeader {
  @usableFromInline static let magic: [UInt8] = Array("LJRP".utf8)

  @inlinable
  static func encode<Section, Item>(
    replica: ReplicaID, listID: UInt64, base: ListSnapshot<Section, Item>, codec: inout HistoryCodec<Section, Item>
  ) throws(HistoryCodecError) -> [UInt8] {
    var bytes = magic
    bytes.append(1)
    withUnsafeBytes(of: replica.rawValue.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: listID.littleEndian) { bytes.append(contentsOf: $0) }
    let checkpoint = try codec.encode(
      .checkpoint(HistoryCheckpoint(head: Version(0), latestVersion: Version(0), snapshot: base)), sequence: 1)
    bytes.append(contentsOf: checkpoint.payload)
    return bytes
  }

  @inlinable
  static func decode<Section, Item>(_ payload: [UInt8], codec: inout HistoryCodec<Section, Item>) throws(HistoryCodecError)
    -> (replica: ReplicaID, listID: UInt64, base: ListSnapshot<Section, Item>)
  {
    guard payload.count >= 21, Array(payload[0..<4]) == magic else {
      throw .malformed(offset: 0, reason: "not a replica header")
    }
    guard payload[4] == 1 else { throw .malformed(offset: 4, reason: "replica header layout \(payload[4]) is newer than 1") }
    func word(_ at: Int) -> UInt64 {
      var value: UInt64 = 0
      for index in 0..<8 { value |= UInt64(payload[at + index]) << UInt64(8 * index) }
      return value
    }
    let record = HistoryRecord(kind: .checkpoint, sequence: 1, version: 0, payload: Array(payload[21...]))
    guard case .checkpoint(let checkpoint) = try codec.decode(record) else {
      throw .malformed(offset: 21, reason: "the base state is not a checkpoint")
    }
    return (ReplicaID(rawValue: word(5)), word(13), checkpoint.snapshot)
  }
}
