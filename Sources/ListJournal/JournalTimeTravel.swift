import Synchronization

/// Time travel directly on a journal file, without replaying it: opening reads only the frame
/// index, and the state at a version is rebuilt from the nearest usable checkpoint record plus
/// the commits on the path to it.
///
/// **The undo tree and checkpoints.** A checkpoint record holds the state at the store's *head*
/// when it was written (plus the newest version number at that time). Versions are not a line:
/// a version committed after an undo hangs off an older version, so a checkpoint only helps if
/// its head is an ancestor of the target. To reach version `v`:
/// 1. take the last checkpoint written before `v`'s commit (frame index lookup, O(log frames));
/// 2. decode forward from it to `v`'s commit (at most about one frame, `journalCheckpointBytes`
///    of records), remembering each commit's parent;
/// 3. walk `v`'s parents back until they leave that range: if the walk arrives at the
///    checkpoint's head, fold the checkpoint's state with the commits on the path; otherwise the
///    walk arrived at an older version `a` (the user had undone past the checkpoint's head), and
///    the state at `a` is found the same way, recursively, from an earlier checkpoint.
/// In a history without undo the first step always succeeds: one checkpoint plus one frame.
///
/// The last checkpoint decoded is kept (its state and the codec's tables right after it), so
/// further travels into the same stretch of the journal — scrubbing through versions — decode
/// only the records after it, not the full state again.
///
/// ```swift
/// let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
/// let snapshot = try travel.state(at: 123_456)
/// ```
/// - Complexity: open O(file size) checksum scan (no decompression); `state(at:)` O(one frame's
///   decode) per checkpoint consulted.
public final class JournalTimeTravel<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Snapshot = ListSnapshot<Section, Item>

  /// The file's index.
  public let reader: JournalReader
  let codec: HistoryCodec<Section, Item>
  /// The last checkpoint decoded: its frame, the codec right after it, and the checkpoint.
  let lastCheckpoint = Mutex<(frame: Int, codec: HistoryCodec<Section, Item>, checkpoint: HistoryCheckpoint<Section, Item>)?>(nil)

  init(reader: JournalReader, codec: HistoryCodec<Section, Item>) {
    self.reader = reader
    self.codec = codec
  }

  /// Opens the journal's index (verifying chunk checksums, decompressing nothing).
  public static func open(
    at path: String, codec: HistoryCodec<Section, Item>, limits: JournalLimits = JournalLimits()
  ) throws(JournalStoreError) -> JournalTimeTravel {
    do { return JournalTimeTravel(reader: try JournalReader.open(at: path, limits: limits), codec: codec) } catch {
      throw .journal(error)
    }
  }

  /// The newest version in the file.
  public var latestVersion: Version { Version(Int(reader.lastVersion ?? 0)) }

  /// The list at `version` (any branch), with markers cleared.
  ///
  /// - Throws: ``JournalStoreError/history(_:)`` with `unknownVersion` for a version not in the
  ///   file; `.invalidRecord`/`.journal` for damage found while decoding.
  public func state(at version: Version) throws(JournalStoreError) -> Snapshot {
    guard version.rawValue >= 0, version <= latestVersion else { throw .history(.unknownVersion(version)) }
    var target = version
    // Each step reduces the target, so the loop ends at version 0 at the latest.
    var pending: [[HistoryCommit<Section, Item>]] = []
    var base: Snapshot
    while true {
      if target == .initial {
        base = Snapshot()
        break
      }
      let step = try plan(for: target)
      pending.append(step.path)
      if let snapshot = step.base {
        base = snapshot
        break
      }
      target = step.ancestor
    }
    for path in pending.reversed() {
      for commit in path {
        for event in commit.events {
          do { try event.apply(to: &base, verifying: false) } catch {
            throw .invalidRecord(
              offset: offset(ofVersion: commit.version), sequence: 0, version: UInt64(commit.version.rawValue),
              reason: error.description)
          }
        }
      }
    }
    base.clearMarkers()
    return base
  }

  /// One step: the commits from an ancestor to `target` (in apply order), and the state at that
  /// ancestor if a checkpoint provided it.
  func plan(for target: Version) throws(JournalStoreError) -> (path: [HistoryCommit<Section, Item>], base: Snapshot?, ancestor: Version) {
    let startFrame = reader.checkpointFrameIndex(atOrBefore: UInt64(target.rawValue - 1))
    var codec = self.codec
    codec.reset()
    var checkpoint: HistoryCheckpoint<Section, Item>?
    var commits: [Int: HistoryCommit<Section, Item>] = [:]
    var iterator = reader.makeIterator(fromFrame: startFrame ?? 0)
    var first = true
    var current: JournalRecord?
    do {
      if let startFrame, let cached = lastCheckpoint.withLock({ $0 }), cached.frame == startFrame {
        // Decoded before: continue right after it with the codec's tables as it left them.
        current = try iterator.next()
        codec = cached.codec
        checkpoint = cached.checkpoint
        first = false
      }
      while let record = try iterator.next() {
        current = record
        guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else { continue }
        if kind == .checkpoint && !first {
          // A later checkpoint resets the codec's tables; decode it to keep them in step.
          _ = try codec.decode(
            HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload),
            checkpointState: false)
          continue
        }
        let content = try codec.decode(
          HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload))
        defer { first = false }
        switch content {
        case .checkpoint(let value) where first && startFrame != nil:
          checkpoint = value
          let decoded = codec
          lastCheckpoint.withLock { $0 = (startFrame!, decoded, value) }
        case .commit(let commit):
          commits[commit.version.rawValue] = commit
          if commit.version == target { break }
        default: continue
        }
        if commits[target.rawValue] != nil { break }
      }
    } catch let error as JournalError {
      throw .journal(error)
    } catch {
      throw .invalidRecord(
        offset: _JournalReplay.offset(ofSequence: current?.sequence ?? 0, in: reader), sequence: current?.sequence ?? 0,
        version: current?.version ?? 0, reason: "\(error)")
    }
    guard commits[target.rawValue] != nil else {
      throw .invalidRecord(
        offset: offset(ofVersion: target), sequence: current?.sequence ?? 0, version: UInt64(target.rawValue),
        reason: "the commit of \(target) was not found after its checkpoint")
    }
    let floor = checkpoint?.latestVersion ?? .initial
    var path: [HistoryCommit<Section, Item>] = []
    var version = target
    while version > floor, let commit = commits[version.rawValue] {
      path.append(commit)
      version = commit.parent
    }
    path.reverse()
    if let checkpoint, checkpoint.head == version { return (path, checkpoint.snapshot, version) }
    if checkpoint == nil && version == .initial { return (path, Snapshot(), version) }
    return (path, nil, version)
  }

  func offset(ofVersion version: Version) -> Int64 {
    guard let index = reader.frameIndex(containing: UInt64(version.rawValue)) else { return reader.frames.first?.offset ?? 64 }
    return reader.frames[index].offset
  }
}

extension JournalTimeTravel where Section == JournalValueElement, Item == JournalValueElement {
  /// Opens any app's journal with generic element values.
  public static func open(at path: String, limits: JournalLimits = JournalLimits()) throws(JournalStoreError) -> JournalTimeTravel {
    try open(at: path, codec: .generic(), limits: limits)
  }
}

extension JournalTimeTravel where Section: Codable, Section.ID: Codable, Item: Codable, Item.ID: Codable {
  /// Opens a journal with an app's own `Codable` element types.
  public static func open(at path: String, limits: JournalLimits = JournalLimits()) throws(JournalStoreError) -> JournalTimeTravel {
    try open(at: path, codec: HistoryCodec(), limits: limits)
  }
}
