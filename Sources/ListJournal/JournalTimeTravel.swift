import ListLocking

/// Time travel directly on a journal file, without replaying it: opening reads only the frame
/// index, and the state at a version is rebuilt from the nearest usable checkpoint record plus
/// the commits on the path to it.
///
/// **The undo tree and checkpoints.** A checkpoint record holds the state at the store's *head*
/// when it was written (plus the newest version number at that time). Versions are not a line:
/// a version committed after an undo hangs off an older version, so a checkpoint only helps if
/// its head is an ancestor of the target. To reach version `v`:
/// 1. take the last checkpoint written before `v`'s commit (frame index lookup, O(log frames));
/// 2. decode forward from it to `v`'s commit, remembering each commit's parent: at least
///    `journalCheckpointBytes` of records separate checkpoints, and at least eight times the last
///    checkpoint's size (`_CheckpointSpacing`), so on a large list this is most of the cost;
/// 3. walk `v`'s parents back until they leave that range: if the walk arrives at the
///    checkpoint's head, fold the checkpoint's state with the commits on the path; otherwise the
///    walk arrived at an older version `a` (the user had undone past the checkpoint's head), and
///    the state at `a` is found the same way, recursively, from an earlier checkpoint.
/// In a history without undo the first step always succeeds: one checkpoint plus the records
/// after it.
///
/// A path with many events against the list's size is folded in a flat ``ListFold`` (faster
/// per event, O(n) to convert to and from), a shorter one applied to the persistent snapshot
/// (see `_foldsFlat(events:items:)`); both give the same state.
///
/// Decoded checkpoints are kept (each one's state and the codec's tables right after it),
/// the least recently used dropped first, within a memory budget (`checkpointCache`, estimated as for a
/// store's checkpoints, see ``CheckpointBudget``; the last one used is always kept). Further
/// travels into a stretch of the journal whose checkpoint is kept — scrubbing through versions,
/// or jumping between a few places — decode only the records after it, not the full state
/// again: on a large list the full state was most of a travel's cost.
///
/// ```swift
/// let travel = try JournalTimeTravel<TestSection, TestItem>.open(at: path)
/// let snapshot = try travel.state(at: 123_456)
/// ```
/// - Complexity: open O(file size) checksum scan (no decompression); `state(at:)` O(the
///   checkpoint's items + the records from it to the version) per checkpoint consulted.
public final class JournalTimeTravel<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Snapshot = ListSnapshot<Section, Item>

  /// The file's index.
  public let reader: JournalReader
  @usableFromInline let codec: HistoryCodec<Section, Item>
  /// The checkpoints decoded so far that the budget keeps.
  @usableFromInline package let checkpoints: ListMutex<_DecodedCheckpoints<Section, Item>>

  @inlinable
  package init(reader: JournalReader, codec: HistoryCodec<Section, Item>, checkpointCache: CheckpointBudget = .default) {
    self.reader = reader
    // Time travel never encodes, so the decoder does not keep contents for an encoder (storing
    // and freeing them would be work no travel uses).
    var codec = codec
    codec.decodingMode = .droppingContents
    self.codec = codec
    self.checkpoints = ListMutex(_DecodedCheckpoints(budget: checkpointCache))
  }

  /// Opens the journal's index (verifying chunk checksums, decompressing nothing).
  ///
  /// - Parameter checkpointCache: the estimated memory the decoded checkpoints kept for later
  ///   travels may hold (the last one used is kept whatever its size).
  @inlinable
  public static func open(
    at path: String, codec: HistoryCodec<Section, Item>, limits: JournalLimits = JournalLimits(),
    checkpointCache: CheckpointBudget = .default
  ) throws(JournalStoreError) -> JournalTimeTravel {
    do {
      return JournalTimeTravel(
        reader: try JournalReader.open(at: path, limits: limits), codec: codec, checkpointCache: checkpointCache)
    } catch {
      throw .journal(error)
    }
  }

  /// The newest version in the file.
  @inlinable
  public var latestVersion: Version { Version(Int(reader.lastVersion ?? 0)) }

  /// The list at `version` (any branch), with markers cleared.
  ///
  /// - Throws: ``JournalStoreError/history(_:)`` with `unknownVersion` for a version not in the
  ///   file; `.invalidRecord`/`.journal` for damage found while decoding.
  @inlinable
  public func state(at version: Version) throws(JournalStoreError) -> Snapshot {
    try state(at: version, foldingFlat: nil)
  }

  /// ``state(at:)``, applying the path's events to a flat ``ListFold`` or to the persistent
  /// snapshot as `foldingFlat` says — nil: whichever ``_foldsFlat(events:items:)`` expects to
  /// be faster (tests force both ways on the same file).
  @inlinable
  package func state(at version: Version, foldingFlat: Bool?) throws(JournalStoreError) -> Snapshot {
    guard version.rawValue >= 0, version <= latestVersion else { throw .history(.unknownVersion(version)) }
    var target = version
    // Each step reduces the target, so the loop ends at version 0 at the latest.
    var pending: [[HistoryCommit<Section, Item>]] = []
    var eventCount = 0
    var base: Snapshot
    while true {
      if target == .initial {
        base = Snapshot()
        break
      }
      let step = try plan(for: target)
      pending.append(step.path)
      eventCount += step.eventCount
      if let snapshot = step.base {
        base = snapshot
        break
      }
      target = step.ancestor
    }
    if foldingFlat ?? Self._foldsFlat(events: eventCount, items: base.numberOfItems) {
      var fold = ListFold(base)
      base = Snapshot()
      try applyInOrder(&pending) { (event) throws(HistoryError) in try fold.apply(event, verifying: false) }
      return fold.snapshot()
    }
    try applyInOrder(&pending) { (event) throws(HistoryError) in try event.apply(to: &base, verifying: false) }
    base.clearMarkers()
    return base
  }

  /// Hands every event of `pending` (paths planned from the target back, each newest first) to
  /// `apply` in apply order, moved out: the steps and commits are popped from their ends and
  /// each event is a temporary, so none is copied (a generic enum's copy and destroy go through
  /// its value witnesses; `while let event = popLast()` would copy each one). A failing event is
  /// reported as its commit's damaged record.
  @inlinable
  func applyInOrder(
    _ pending: inout [[HistoryCommit<Section, Item>]],
    _ apply: (consuming ListEvent<Section, Item>) throws(HistoryError) -> Void
  ) throws(JournalStoreError) {
    while var path = pending.popLast() {
      while var commit = path.popLast() {
        commit.events.reverse()
        while !commit.events.isEmpty {
          do { try apply(commit.events.removeLast()) } catch { throw invalidCommit(commit.version, error) }
        }
      }
    }
  }

  /// Whether a path of `events` events onto a state of `items` items is applied faster through
  /// a ``ListFold`` than to the persistent snapshot.
  ///
  /// The fold applies an event in less time (no tree descents or node copies), but the base is
  /// converted into a fold and the result back into a snapshot, each O(items) — and converting
  /// a persistent snapshot is slow per item: every item is looked up in its hash tree (cache
  /// misses). So the fold pays only once the path has more events than the base has items (the
  /// break-even the store benchmark measures, see Tools/Benchmarks/README.md, "Time travel in
  /// the file"), and short paths never fold, whatever the size.
  @inlinable
  package static func _foldsFlat(events: Int, items: Int) -> Bool {
    events >= 4_096 && events >= items + items / 4
  }

  /// The error for a path's event that does not apply: the record is damaged or foreign.
  @inlinable
  func invalidCommit(_ version: Version, _ error: HistoryError) -> JournalStoreError {
    .invalidRecord(
      offset: offset(ofVersion: version), sequence: 0, version: UInt64(version.rawValue), reason: error.description)
  }

  /// One step: the commits from an ancestor to `target` (newest first, the reverse of apply
  /// order), how many events they hold, and the state at that ancestor if a checkpoint
  /// provided it.
  @inlinable
  func plan(for target: Version) throws(JournalStoreError)
    -> (path: [HistoryCommit<Section, Item>], eventCount: Int, base: Snapshot?, ancestor: Version)
  {
    let startFrame = reader.checkpointFrameIndex(atOrBefore: UInt64(target.rawValue - 1))
    var codec = self.codec
    codec.reset()
    var checkpoint: HistoryCheckpoint<Section, Item>?
    var commits = _DecodedCommits<Section, Item>()
    var iterator = reader.makeIterator(fromFrame: startFrame ?? 0)
    var first = true
    // The record read last (for errors). Its payload's storage is reused for the next record:
    // each record is decoded before the next is read, so no payload array is allocated per record.
    var record = JournalRecord(kind: .metadata, version: 0, payload: [])
    var found = false
    // The gap record passed last (a repaired journal), until its checkpoint is read.
    var gap: HistoryGap?
    do {
      if let startFrame, let cached = checkpoints.withLock({ $0.take(frame: startFrame) }) {
        // Decoded before: continue right after it with the codec's tables as it left them.
        _ = try iterator.next(into: &record)
        codec = cached.codec
        checkpoint = cached.checkpoint
        first = false
      }
      while try iterator.next(into: &record) {
        guard let kind = HistoryRecord.Kind(rawValue: record.kind.rawValue) else { continue }
        if kind == .checkpoint && !first, let passed = gap {
          // The history resumes here: the target is this checkpoint's head, or lost, or later.
          let content = try codec.decode(
            HistoryRecord(kind: kind, sequence: record.sequence, version: record.version, payload: record.payload))
          gap = nil
          guard case .checkpoint(let resumed) = content else { continue }
          if resumed.head == target { return ([], 0, resumed.snapshot, target) }
          if let lost = passed.lost, lost.contains(target) {
            let run = resumed.head > target && lost.contains(resumed.head)
              ? lost.lowerBound...Version(resumed.head.rawValue - 1)
              : (resumed.head < target && lost.contains(resumed.head) ? Version(resumed.head.rawValue + 1)...lost.upperBound : lost)
            throw HistoryError.versionLost(target, lost: run)
          }
          continue
        }
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
        switch consume content {
        case .checkpoint(let value) where first && startFrame != nil:
          checkpoint = value
          let decoded = codec
          checkpoints.withLock { $0.keep(frame: startFrame!, codec: decoded, checkpoint: value) }
        case .commit(let commit):
          found = commit.version == target
          commits.insert(commit)
        case .gap(let value): gap = value
        default: continue
        }
        if found { break }
      }
    } catch let error as JournalError {
      throw .journal(error)
    } catch let error as HistoryError {
      throw .history(error)
    } catch {
      throw .invalidRecord(
        offset: _JournalReplay.offset(ofSequence: record.sequence, in: reader), sequence: record.sequence,
        version: record.version, reason: "\(error)")
    }
    guard found else {
      throw .invalidRecord(
        offset: offset(ofVersion: target), sequence: record.sequence, version: UInt64(target.rawValue),
        reason: "the commit of \(target) was not found after its checkpoint")
    }
    let floor = checkpoint?.latestVersion ?? .initial
    var path: [HistoryCommit<Section, Item>] = []
    var eventCount = 0
    var version = target
    // Versions only decrease along the walk, so each commit is taken (moved) at most once.
    while version > floor, let commit = commits.take(version.rawValue) {
      version = commit.parent
      eventCount += commit.events.count
      path.append(commit)
    }
    if let checkpoint, checkpoint.head == version { return (path, eventCount, checkpoint.snapshot, version) }
    if checkpoint == nil && version == .initial { return (path, eventCount, Snapshot(), version) }
    return (path, eventCount, nil, version)
  }

  @inlinable
  func offset(ofVersion version: Version) -> Int64 {
    guard let index = reader.frameIndex(containing: UInt64(version.rawValue)) else { return reader.frames.first?.offset ?? 64 }
    return reader.frames[index].offset
  }
}

extension JournalTimeTravel where Section == JournalValueElement, Item == JournalValueElement {
  /// Opens any app's journal with generic element values.
  @inlinable
  public static func open(
    at path: String, limits: JournalLimits = JournalLimits(), checkpointCache: CheckpointBudget = .default
  ) throws(JournalStoreError) -> JournalTimeTravel {
    try open(at: path, codec: .generic(), limits: limits, checkpointCache: checkpointCache)
  }
}

extension JournalTimeTravel where Section: Codable, Section.ID: Codable, Item: Codable, Item.ID: Codable {
  /// Opens a journal with an app's own `Codable` element types.
  @inlinable
  public static func open(
    at path: String, limits: JournalLimits = JournalLimits(), checkpointCache: CheckpointBudget = .default
  ) throws(JournalStoreError) -> JournalTimeTravel {
    try open(at: path, codec: HistoryCodec(), limits: limits, checkpointCache: checkpointCache)
  }
}

/// The checkpoints a ``JournalTimeTravel`` decoded, kept within a memory budget: each with its
/// frame and the codec's tables right after it, the most recently used last.
@usableFromInline
package struct _DecodedCheckpoints<Section: ListElement, Item: ListElement>: Sendable {
  /// One kept checkpoint. A struct, not a tuple: with the codec's tables a few fields larger, a
  /// debug build (Swift 6.3.1) destroyed an optional tuple of these through a bad pointer.
  @usableFromInline
  package struct Entry: Sendable {
    @usableFromInline package var frame: Int
    @usableFromInline package var codec: HistoryCodec<Section, Item>
    @usableFromInline package var checkpoint: HistoryCheckpoint<Section, Item>
    @usableFromInline package var cost: Int

    @inlinable
    init(frame: Int, codec: HistoryCodec<Section, Item>, checkpoint: HistoryCheckpoint<Section, Item>, cost: Int) {
      self.frame = frame
      self.codec = codec
      self.checkpoint = checkpoint
      self.cost = cost
    }
  }
  @usableFromInline let budget: CheckpointBudget
  @usableFromInline
  private(set) var entries: [Entry] = []
  /// The estimated bytes the kept checkpoints hold.
  @usableFromInline
  package private(set) var cost = 0

  @inlinable
  package init(budget: CheckpointBudget) { self.budget = budget }

  /// The frames of the kept checkpoints, the least recently used first.
  @inlinable
  package var frames: [Int] { entries.map(\.frame) }

  /// The checkpoint of `frame` with the codec right after it, if kept; it becomes the most
  /// recently used.
  ///
  /// - Complexity: O(kept checkpoints).
  @inlinable
  package mutating func take(frame: Int) -> Entry? {
    guard let index = entries.firstIndex(where: { $0.frame == frame }) else { return nil }
    let entry = entries.remove(at: index)
    entries.append(entry)
    return entry
  }

  /// Keeps a decoded checkpoint as the most recently used, then drops the least recently used
  /// ones while the estimate exceeds the budget (never the one just kept).
  ///
  /// - Complexity: O(kept checkpoints).
  @inlinable
  package mutating func keep(frame: Int, codec: HistoryCodec<Section, Item>, checkpoint: HistoryCheckpoint<Section, Item>) {
    if let index = entries.firstIndex(where: { $0.frame == frame }) { cost -= entries.remove(at: index).cost }
    let entryCost = Self.estimatedCost(of: checkpoint)
    entries.append(Entry(frame: frame, codec: codec, checkpoint: checkpoint, cost: entryCost))
    cost += entryCost
    while entries.count > 1, let maximum = budget.maximumBytes, cost > maximum { cost -= entries.removeFirst().cost }
  }

  /// A checkpoint's state as a store's checkpoint is estimated, plus the codec's tables (an
  /// identifier, its value and a content per item): about half as much again.
  @inlinable
  package static func estimatedCost(of checkpoint: HistoryCheckpoint<Section, Item>) -> Int {
    let state = CheckpointBudget.estimatedCost(of: checkpoint.snapshot)
    return state + state / 2
  }
}
