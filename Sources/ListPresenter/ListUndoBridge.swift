import ListHistory
import ListState

/// Connects a ``ListStore``'s history to the system's undo: each committed version becomes one
/// undo group of an `UndoManager`, named by the version's label, whose undo and redo call the
/// store's ``ListStore/undo()`` and ``ListStore/redo()`` — so the Edit menu, ⌘Z / ⇧⌘Z and
/// shake-to-undo work on the list.
///
/// The bridge mirrors the store's history, wherever a change comes from: a commit registers a
/// group (and, as in `UndoManager`, clears the redo stack); an undo or redo made on the store
/// directly moves the manager's stacks along; a checkout, a journal reopened, or anything the
/// bridge cannot follow step by step rebuilds both stacks from the store — the undo stack from
/// the head's ancestors, the redo stack from ``ListStore/redoPath(limit:)``, which a journal
/// restores.
///
/// ```swift
/// let journal = try JournalStore<Folder, Note>.open(at: path)
/// let bridge = ListUndoBridge(store: journal.store, undoManager: window.undoManager!)
/// try journal.store.moveItem("Pear", beforeItem: "Apple")   // Edit ▸ Undo Move
/// ```
///
/// Keep the bridge alive as long as the manager may undo (the manager holds its target weakly, as
/// `UndoManager` does), and call ``invalidate()`` before dropping it while the manager lives on.
///
/// Versions committed in one run-loop event while the manager groups by event form one group of
/// the Edit menu: one ⌘Z undoes them all, still one store undo each.
///
/// - Complexity: O(1) per change; a rebuild O(depth) for the stacks it registers.
@MainActor
public final class ListUndoBridge<Section: ListElement, Item: ListElement> {
  public typealias Change = ListChange<Section, Item>

  /// The store whose history the manager shows.
  public let store: ListStore<Section, Item>
  /// The manager the groups are registered with.
  public let manager: any ListUndoManaging
  /// The most versions registered when the stacks are rebuilt (each way); the manager's own
  /// `levelsOfUndo`, when set, limits the undo stack too.
  public let maximumDepth: Int
  /// The action name of versions without a label.
  public var labelForUnlabelled: String
  /// Called with the store's error when an undo or redo from the manager fails (the stacks are
  /// then rebuilt from the store).
  public var onError: ((any Error) -> Void)?

  /// Versions whose undo group is on the manager's undo stack, oldest first.
  public internal(set) var undoVersions: [Version] = []
  /// Versions whose redo group is on the manager's redo stack, the next redo last.
  public internal(set) var redoVersions: [Version] = []
  /// The head the stacks describe.
  var mirroredHead: Version
  /// While set, the manager's handlers only move groups between stacks; the store is already
  /// where they lead.
  var replaying = false
  var rebuildScheduled = false
  let mailbox = _ChangeMailbox<Section, Item>()
  /// Releasing the bridge releases it, which ends the observation.
  let observation: ListStoreObservation

  /// A bridge from `store` to `manager`, whose stacks it fills from the store's history at once.
  ///
  /// - Parameters:
  ///   - maximumDepth: the most versions registered each way when the stacks are rebuilt.
  ///   - labelForUnlabelled: the action name of versions without a label.
  public init(
    store: ListStore<Section, Item>, manager: any ListUndoManaging, maximumDepth: Int = 1_000,
    labelForUnlabelled: String = ""
  ) {
    self.store = store
    self.manager = manager
    self.maximumDepth = max(0, maximumDepth)
    self.labelForUnlabelled = labelForUnlabelled
    let mailbox = self.mailbox
    observation = store.observe { mailbox.post($0) }
    mirroredHead = store.head
    mailbox.setConsumer { [weak self] in self?.applyQueuedChanges() }
    rebuild()
  }

  /// Removes the bridge's groups from the manager and stops following the store.
  public func invalidate() {
    observation.cancel()
    manager.removeAllActions(withTarget: self)
    undoVersions = []
    redoVersions = []
  }

  /// Whether the manager's stacks say what the store's history says: the top undo group undoes
  /// the head, the top redo group redoes ``ListStore/redoTarget``.
  public var isInStepWithStore: Bool {
    let head = store.head
    let undoOK = head.rawValue == 0 ? undoVersions.isEmpty : undoVersions.last == head
    return undoOK && redoVersions.last == store.redoTarget
  }
}
