#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Tool operations on journal files: verify, repair, compact, and export to / import from JSON
/// Lines. (`listjournal verify|repair|compact|export|import`.)
///
/// ```swift
/// let report = JournalMaintenance.verify(at: path)
/// if !report.isValid { _ = try JournalMaintenance.repair(at: path) }
/// try JournalMaintenance.export(at: path, toJSONLines: path + ".jsonl")
/// ```
public enum JournalMaintenance {
  /// Checks a journal completely: every chunk checksum, every zstd frame, every record's
  /// decoding, a full replay verifying each event against the state it applies to, every
  /// checkpoint record against the replayed state at its head, and the model's invariants
  /// (`_checkInvariants`, real in debug builds) on the head state and each checkpointed state.
  /// Never throws: the first problem is in the report, with its byte offset and version.
  ///
  /// With `writingReadIndex`, a sound journal whose read index (`<path>.index`, see
  /// ``JournalReadIndex``) is missing or does not describe it gets one, from the replayed
  /// history (best effort: ``JournalVerification/readIndexWritten`` tells whether it was).
  ///
  /// - Complexity: O(file size + events · log n).
  @inlinable
  public static func verify<Section, Item>(
    at path: String, codec: HistoryCodec<Section, Item>, writingReadIndex: Bool = false
  ) -> JournalVerification {
    verify(at: path, codec: codec, writingReadIndex: writingReadIndex, progress: nil)
  }

  /// ``verify(at:codec:writingReadIndex:)``, telling `progress` (records replayed, records in
  /// the journal) as the replay goes, as ``JournalHistory``'s open does: for a tool's progress
  /// bar.
  @inlinable
  package static func verify<Section, Item>(
    at path: String, codec: HistoryCodec<Section, Item>, writingReadIndex: Bool = false,
    progress: ((_ done: Int, _ total: Int) -> Void)?
  ) -> JournalVerification {
    var report = JournalVerification()
    let reader: JournalReader
    do { reader = try JournalReader.open(at: path, tolerateCorruption: true) } catch {
      report.problem = .journal(error)
      return report
    }
    report.tornTailBytes = reader.recovery.corruption == nil ? reader.recovery.tornTailBytes : 0
    let counter = _KindCounter()
    // Checkpoints are decoded with their own codec (a checkpoint resets the tables, so it decodes alone).
    var checkpoints: [(sequence: UInt64, offset: Int64, checkpoint: HistoryCheckpoint<Section, Item>)] = []
    var checkpointCodec = codec
    let store: ListStore<Section, Item>
    do throws(JournalStoreError) {
      let replayProgress = _JournalReplay.Progress()
      let onProgress = progress
      onProgress?(0, Int(reader.recordCount))
      var records = _JournalReplay.Records(
        reader: reader, progress: replayProgress, fromFrame: 0, counter: counter, onProgress: onProgress)
      records.onCheckpoint = { record in
        if case .checkpoint(let value)? = try? checkpointCodec.decode(record) {
          checkpoints.append((record.sequence, _JournalReplay.offset(ofSequence: record.sequence, in: reader), value))
        }
      }
      do {
        store = try ListStore(replaying: records, codec: codec, sink: nil, checkpointInterval: 256, journalCheckpointBytes: .max)
      } catch {
        throw _JournalReplay.failure(error, reader: reader, progress: replayProgress)
      }
      if let failure = replayProgress.error { throw .journal(failure) }
      if replayProgress.foundReplicaHeader { throw .replicaJournal(path: path) }
      onProgress?(Int(reader.recordCount), Int(reader.recordCount))
      report.recordCount = UInt64(counter.commits + counter.headMoves + counter.checkpoints + counter.gaps)
    } catch {
      report.problem = error
      return report
    }
    report.versionCount = store.latestVersion.rawValue + 1
    report.eventCount = store.eventCount
    report.lostVersions = store.lostVersions
    if let corruption = reader.recovery.corruption { report.problem = .journal(corruption) }
    store.snapshot._checkAllInvariants()
    report.statesChecked = 1
    for entry in checkpoints {
      // A checkpoint of a lost head (the history had moved onto a lost version): nothing to
      // compare it with.
      if report.lostVersions.contains(where: { $0.contains(entry.checkpoint.head) }) { continue }
      guard let state = try? store.state(at: entry.checkpoint.head) else {
        report.problem = report.problem ?? .invalidRecord(
          offset: entry.offset, sequence: entry.sequence, version: UInt64(entry.checkpoint.latestVersion.rawValue),
          reason: "checkpoint of unknown head \(entry.checkpoint.head)")
        break
      }
      state._checkAllInvariants()
      report.statesChecked += 1
      var stored = entry.checkpoint.snapshot
      stored.clearMarkers()
      guard state == stored else {
        report.problem = report.problem ?? .invalidRecord(
          offset: entry.offset, sequence: entry.sequence, version: UInt64(entry.checkpoint.latestVersion.rawValue),
          reason: "checkpoint state of \(entry.checkpoint.head) differs from the replayed state")
        break
      }
      report.checkpointsChecked += 1
    }
    if writingReadIndex, report.problem == nil, reader.recovery.corruption == nil,
      (try? JournalReadIndex.open(journal: reader, codec: codec)) == nil
    {
      report.readIndexWritten =
        (try? _ReadIndexWriter.write(
          of: store, codec: codec, prefix: reader.prefix, journalPath: path, commitCount: counter.commits,
          headMoveCount: counter.headMoves, fileSystem: POSIXFileSystem())) != nil
    }
    return report
  }

  /// `verify` with generic element values (any app's journal).
  @inlinable
  public static func verify(at path: String, writingReadIndex: Bool = false) -> JournalVerification {
    verify(
      at: path, codec: HistoryCodec<JournalValueElement, JournalValueElement>.generic(), writingReadIndex: writingReadIndex)
  }

  /// ``verify(at:writingReadIndex:)`` with a progress handler (see
  /// ``verify(at:codec:writingReadIndex:progress:)``).
  @inlinable
  package static func verify(
    at path: String, writingReadIndex: Bool = false, progress: ((_ done: Int, _ total: Int) -> Void)?
  ) -> JournalVerification {
    verify(
      at: path, codec: HistoryCodec<JournalValueElement, JournalValueElement>.generic(), writingReadIndex: writingReadIndex,
      progress: progress)
  }

  /// Repairs mid-file damage: keeps the valid prefix and every intact stretch after the damage
  /// from its first checkpoint on, behind a gap record naming the versions lost (see
  /// `JournalRepair`); saves the damaged original aside as `<path>.damaged-<time>` (never
  /// deleted) and replaces `path` atomically. Refused while a writer holds the journal, and
  /// when nothing at all can be kept. Byte-level damage only (checksums, zstd, record framing); a record
  /// that is intact but does not replay is reported by ``verify(at:codec:)``.
  @inlinable
  public static func repair(at path: String) throws(JournalStoreError) -> JournalRepair.Report {
    do { return try JournalRepair.repair(at: path) } catch { throw .journal(error) }
  }

  /// Recompresses every frame at `level` (atomically: temp file, fsync, rename). History is kept
  /// whole; ``compact(at:level:keeping:codec:options:)`` drops the older part.
  @inlinable
  public static func compact(at path: String, level: Int32 = 19) throws(JournalStoreError) -> JournalCompactor.Report {
    do { return try JournalCompactor.compact(at: path, level: level) } catch { throw .journal(error) }
  }
}
