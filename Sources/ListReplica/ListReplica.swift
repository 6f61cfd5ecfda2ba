// `import ListReplica` is enough for an app: the list, its commits and codec, and changesets.
@_exported import ListState
@_exported import ListHistory
@_exported import ListDiff
import ListLocking

/// One replica of a list that several devices edit: local transactions become commits that
/// the other replicas receive, concurrent commits merge by identifier in an order every replica
/// agrees on, and undo and redo apply to this replica's own edits only.
///
/// Replicas that hold the same commits hold the same list, whatever order the commits arrived
/// in: every replica applies all commits in one order (Lamport clock, then replica, then
/// sequence), and an operation whose precondition a concurrent commit broke is transformed by
/// the documented rules instead of failing (see the Merging article). Each such transformation
/// is kept as a ``ReplicaOverride``.
///
/// ```swift
/// let phone = ListReplica<String, String>()
/// let laptop = ListReplica<String, String>(cloning: phone)
/// try phone.transaction { try $0.appendSections(["Fruit"]) ; try $0.appendItems(["Apple"]) }
/// try laptop.receive(phone.changes(since: laptop.versionVector))
/// try laptop.transaction { try $0.appendItems(["Pear"]) }
/// try phone.transaction { try $0.deleteItems(["Apple"]) }
/// try phone.receive(laptop.changes(since: phone.versionVector))
/// try laptop.receive(phone.changes(since: laptop.versionVector))
/// phone.snapshot == laptop.snapshot          // true: ["Pear"]
/// ```
///
/// Thread-safe (one lock) and synchronous, like `ListStore`.
///
/// - Complexity: a local transaction costs its operations, O(log n) each, three times (the
///   transaction, turning its events into operations, and applying those); receiving k commits
///   that sort after everything held costs their operations; k that sort before m held ones
///   also reverts and re-applies those m (see ``ListReplicaConfiguration/rebaseWindow``).
public final class ListReplica<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Snapshot = ListSnapshot<Section, Item>
  public typealias Commit = ReplicaCommit<Section, Item>
  public typealias Transaction = ListStore<Section, Item>.Transaction
  public typealias Override = ReplicaOverride<Section, Item>
  public typealias Merge = ReplicaMerge<Section, Item>

  @usableFromInline let state: ListMutex<_ReplicaState<Section, Item>>

  /// A new shared list, empty or starting from `base`, held in memory.
  ///
  /// - Parameters:
  ///   - replica: this replica's identifier (random by default).
  ///   - listID: the shared list's identifier (random by default); replicas made with
  ///     ``init(cloning:replica:configuration:)`` share it.
  @inlinable
  public init(
    replica: ReplicaID = .random(), listID: UInt64? = nil, base: Snapshot = Snapshot(),
    configuration: ListReplicaConfiguration = ListReplicaConfiguration()
  ) {
    var generator = SystemRandomNumberGenerator()
    state = ListMutex(
      _ReplicaState(
        replica: replica, listID: listID ?? generator.next(), base: base, rebaseWindow: configuration.rebaseWindow,
        now: configuration.clock))
  }

  /// A new replica of the same list as `other`, holding all of its commits, with its own
  /// identifier.
  ///
  /// - Complexity: O(commits of `other`) (they are applied again here).
  @inlinable
  public convenience init(
    cloning other: ListReplica, replica: ReplicaID = .random(), configuration: ListReplicaConfiguration = ListReplicaConfiguration()
  ) {
    let (listID, base, commits) = other.state.withLock { ($0.listID, $0.base, $0.order) }
    self.init(replica: replica, listID: listID, base: base, configuration: configuration)
    state.withLock { state in state.append(commits) }
  }

  @inlinable
  init(state initial: _ReplicaState<Section, Item>) { state = ListMutex(initial) }

  // MARK: Reading

  /// This replica's identifier.
  @inlinable
  public var replicaID: ReplicaID { state.withLock { $0.replica } }
  /// The shared list's identifier.
  @inlinable
  public var listID: UInt64 { state.withLock { $0.listID } }
  /// The merged list: every commit held, applied in the agreed order.
  @inlinable
  public var snapshot: Snapshot { state.withLock { $0.merge.snapshot } }
  /// The list every commit applies to (empty, or the single-writer journal the list came from).
  @inlinable
  public var base: Snapshot { state.withLock { $0.base } }
  /// What this replica holds, per replica: what another replica sends it the commits beyond.
  @inlinable
  public var versionVector: ReplicaVersionVector { state.withLock { $0.versionVector } }
  /// How many commits the replica holds.
  @inlinable
  public var commitCount: Int { state.withLock { $0.order.count } }
  /// Every commit held, in the agreed order (identical on replicas holding the same commits).
  @inlinable
  public var commits: [Commit] { state.withLock { $0.order } }
  /// The highest Lamport clock seen.
  @inlinable
  public var lamportClock: UInt64 { state.withLock { $0.clock } }

  /// Whether the replica holds the commit.
  @inlinable
  public func holds(_ id: ReplicaCommitID) -> Bool { state.withLock { $0.holds(id) } }

  /// The commits this replica holds and `vector` does not cover, in the agreed order: what a
  /// replica whose version vector that is lacks.
  ///
  /// - Complexity: O(commits held).
  @inlinable
  public func changes(since vector: ReplicaVersionVector) -> [Commit] {
    state.withLock { state in state.order.filter { !vector.contains($0.id) } }
  }

  /// The overrides recorded for the commits of `replica` (all replicas when nil) among the
  /// newest ``ListReplicaConfiguration/rebaseWindow`` commits: "your change to X was
  /// overridden".
  @inlinable
  public func overrides(of replica: ReplicaID? = nil) -> [Override] {
    state.withLock { state in
      state.overrides(from: 0).filter { replica == nil || $0.commit.replica == replica }
    }
  }
}
