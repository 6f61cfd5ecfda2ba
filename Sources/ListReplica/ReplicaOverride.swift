import ListState
import ListHistory

/// A record that an operation of a commit did not take effect as its author made it: what an
/// app shows as "your change to X was overridden".
///
/// Merging never fails and never drops an operation silently: every operation whose
/// precondition no longer held is transformed by one rule (see the Merging article), and each
/// such transformation, as well as each change a concurrent later change replaced, leaves one
/// override naming the commit, the operation's index in it, the item or section, and why.
///
/// ```swift
/// for override in merge.overrides where override.commit.replica == replica.replicaID {
///     print("your change to \(override.subject) was overridden: \(override.reason)")
/// }
/// ```
public struct ReplicaOverride<Section: ListElement, Item: ListElement>: Hashable, Sendable, CustomStringConvertible {
  /// What the operation was about.
  public enum Subject: Hashable, Sendable, CustomStringConvertible {
    case item(Item.ID)
    case section(Section.ID)

    public var description: String {
      switch self {
      case .item(let id): "item \(id)"
      case .section(let id): "section \(id)"
      }
    }
  }

  /// Which rule transformed the operation.
  public enum Reason: Hashable, Sendable, CustomStringConvertible {
    /// The item it was to follow had been deleted: it was placed after that item's nearest
    /// surviving predecessor (or first in the container).
    case anchorDeleted
    /// Its parent item or section had been deleted: it was placed where the parent was, or at
    /// the end of the nearest surviving section before the deleted one.
    case containerDeleted
    /// The item or section had already been deleted: the operation did nothing.
    case alreadyDeleted
    /// The move would have put an item inside its own subtree: it was not moved.
    case cycle
    /// The identifier existed already (created on another replica too): this insert of it was
    /// dropped, the one earlier in the order kept.
    case duplicateIdentifier
    /// A concurrent change later in the order set the same content, place or expansion, or
    /// deleted the item or section.
    case superseded(by: ReplicaCommitID)
    /// A delete kept this item, which another replica had concurrently put under the deleted
    /// item or into the deleted section; it now sits where the deleted one was.
    case keptFromDeletion
    /// No place was left for it (the list has no section): the insert was dropped; or a
    /// section's delete took this concurrently added item along, the list having no other
    /// section to keep it in.
    case noPlace

    public var description: String {
      switch self {
      case .anchorDeleted: "its neighbour was deleted"
      case .containerDeleted: "its parent or section was deleted"
      case .alreadyDeleted: "it was already deleted"
      case .cycle: "the move would put it inside itself"
      case .duplicateIdentifier: "its identifier was created on another replica too"
      case .superseded(let by): "a concurrent change (\(by)) replaced it"
      case .keptFromDeletion: "it was kept from a concurrent deletion"
      case .noPlace: "the list has no section to put it in"
      }
    }
  }

  /// The commit whose operation was transformed or replaced.
  public var commit: ReplicaCommitID
  /// The operation's index in the commit's ``ReplicaCommit/operations``.
  public var operation: Int
  public var subject: Subject
  public var reason: Reason

  @inlinable
  public init(commit: ReplicaCommitID, operation: Int, subject: Subject, reason: Reason) {
    self.commit = commit
    self.operation = operation
    self.subject = subject
    self.reason = reason
  }

  public var description: String { "\(commit) #\(operation) \(subject): \(reason)" }
}
