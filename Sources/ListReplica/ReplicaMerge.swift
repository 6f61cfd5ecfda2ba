import ListState
import ListHistory
import ListDiff

/// What receiving commits did: the commits that were new, the list before and after, the one
/// changeset that takes a UI from the one to the other, and the overrides the merge recorded.
///
/// ```swift
/// let merge = try laptop.receive(phone.changes(since: laptop.versionVector))
/// collectionView.apply(merge.changeset) { rows = merge.snapshot }
/// ```
public struct ReplicaMerge<Section: ListElement, Item: ListElement>: Sendable {
  /// The commits that were new to the replica, in the agreed order.
  public var received: [ReplicaCommitID]
  /// How many of the delivered commits the replica held already (repeated deliveries).
  public var duplicates: Int
  /// How many commits the replica already held were applied again because new ones sort
  /// before them (0 when every new commit came after everything held).
  public var rebased: Int
  /// The list before the merge (what the UI showed).
  public var previous: ListSnapshot<Section, Item>
  /// The list after the merge.
  public var snapshot: ListSnapshot<Section, Item>
  /// The overrides recorded while applying the commits from the first changed position on.
  public var overrides: [ReplicaOverride<Section, Item>]

  @inlinable
  init(
    received: [ReplicaCommitID], duplicates: Int, rebased: Int, previous: ListSnapshot<Section, Item>,
    snapshot: ListSnapshot<Section, Item>, overrides: [ReplicaOverride<Section, Item>]
  ) {
    self.received = received
    self.duplicates = duplicates
    self.rebased = rebased
    self.previous = previous
    self.snapshot = snapshot
    self.overrides = overrides
  }

  /// Whether the list changed.
  @inlinable
  public var changedList: Bool { !previous.isIdentical(to: snapshot) && previous != snapshot }

  /// The changes from ``previous`` to ``snapshot`` in the order UIKit's batch updates require
  /// (a full diff of the two states, computed on access).
  ///
  /// - Complexity: O(n) for n visible rows (see `ListChangeset.init(from:to:)`).
  @inlinable
  public var changeset: ListChangeset<Section.ID, Item.ID> { ListChangeset(from: previous, to: snapshot) }
}
