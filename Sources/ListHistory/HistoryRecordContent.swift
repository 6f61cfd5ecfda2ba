import ListState

/// A committed transaction as stored in a commit record.
public struct HistoryCommit<Section: ListElement, Item: ListElement>: Sendable, Equatable {
  public var version: Version
  public var parent: Version
  /// Seconds since 1970, millisecond precision (the store rounds when it commits).
  public var timestamp: Double
  public var label: String?
  public var events: [ListEvent<Section, Item>]

  @inlinable
  public init(version: Version, parent: Version, timestamp: Double, label: String?, events: [ListEvent<Section, Item>]) {
    self.version = version
    self.parent = parent
    self.timestamp = timestamp
    self.label = label
    self.events = events
  }
}

/// An undo, redo or checkout as stored in a head-move record.
public struct HistoryHeadMove: Sendable, Hashable {
  public enum Kind: UInt8, Sendable, Hashable, CustomStringConvertible {
    case undo = 1, redo = 2, checkout = 3
    @inlinable
    public var description: String {
      switch self {
      case .undo: "undo"
      case .redo: "redo"
      case .checkout: "checkout"
      }
    }
  }
  public var kind: Kind
  public var from: Version
  public var to: Version
  /// The newest version of the history when the head moved (the record's version).
  public var latestVersion: Version
  /// Seconds since 1970, millisecond precision.
  public var timestamp: Double

  @inlinable
  public init(kind: Kind, from: Version, to: Version, latestVersion: Version, timestamp: Double) {
    self.kind = kind
    self.from = from
    self.to = to
    self.latestVersion = latestVersion
    self.timestamp = timestamp
  }
}

/// A full state as stored in a checkpoint record: the state at `head` when it was written.
public struct HistoryCheckpoint<Section: ListElement, Item: ListElement>: Sendable {
  /// The head whose state this is.
  public var head: Version
  /// The newest version at that time.
  public var latestVersion: Version
  public var snapshot: ListSnapshot<Section, Item>

  @inlinable
  public init(head: Version, latestVersion: Version, snapshot: ListSnapshot<Section, Item>) {
    self.head = head
    self.latestVersion = latestVersion
    self.snapshot = snapshot
  }
}

/// A decoded record.
public enum HistoryRecordContent<Section: ListElement, Item: ListElement>: Sendable {
  case commit(HistoryCommit<Section, Item>)
  case headMove(HistoryHeadMove)
  case checkpoint(HistoryCheckpoint<Section, Item>)
  /// Versions a repair lost; the next record is the checkpoint the history resumes at.
  case gap(HistoryGap)
}
