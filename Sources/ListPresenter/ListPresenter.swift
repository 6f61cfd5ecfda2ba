import ListDiff
import ListHistory
import ListState

/// What a list UI shows, kept in step with a ``ListStore``: the rows by index path, the batch
/// updates that move a view from one version to the next, and the gestures that change the list.
///
/// The presenter is the platform-free core of a data source. It observes the store (commits,
/// undo, redo, checkouts, rebuilt-snapshot applies — from any thread), turns each change into a
/// ``ListChangeset`` and hands it to its ``renderer`` one batch at a time, setting its own rows
/// inside each batch, before the batch's operations, as UIKit requires. A view's data source
/// answers from the presenter (``numberOfSections``, ``numberOfItems(inSection:)``,
/// ``itemIdentifier(at:)``), and its gesture callbacks call the presenter
/// (``toggleExpansion(at:)``, ``moveRow(from:to:viewAlreadyMoved:)``, ``deleteRows(at:)``),
/// which records them in the store as undoable versions.
///
/// Updates never interleave: a change that arrives while an update runs (a store change made
/// from a cell provider or a batch's completion, or one from another thread) waits in a queue and
/// is applied after it, together with whatever else queued. A gesture's own change, and on Apple
/// platforms any change made on the main thread, is applied before the call that made it
/// returns; changes from other threads are delivered on the main actor.
///
/// ```swift
/// let presenter = ListPresenter(store: journal.store)
/// presenter.renderer = tableAdapter          // any ListBatchUpdateTarget
/// presenter.numberOfItems(inSection: 0)
/// try presenter.toggleExpansion(at: ListIndexPath(section: 0, row: 2))   // "Expand", undoable
/// try journal.store.undo()                   // the view animates back
/// ```
///
/// - Complexity: queries are O(log n) (times the outline's depth) against the shown snapshot;
///   an update costs its changeset (event-derived: proportional to the rows it touches).
@MainActor
public final class ListPresenter<Section: ListElement, Item: ListElement> {
  public typealias Snapshot = ListSnapshot<Section, Item>
  public typealias Changeset = ListChangeset<Section.ID, Item.ID>
  public typealias Rows = ListVisibleRows<Section.ID, Item.ID>
  public typealias Change = ListChange<Section, Item>

  /// The list whose rows the presenter shows. Change it directly or through the gestures.
  public let store: ListStore<Section, Item>
  /// The undo labels of gesture versions.
  public var labels = ListGestureLabels()
  /// The view updates go to, batch by batch; nil: the presenter only keeps its rows (a SwiftUI
  /// model, a view not loaded yet). Setting it does not reload the view: a freshly attached view
  /// loads its rows from the presenter as data source.
  public var renderer: (any ListBatchUpdateTarget)?
  /// Whether a row that stays on screen is reconfigured when its disclosure state changes — it
  /// expands or collapses, or gains its first child or loses its last — so a cell that draws its
  /// own chevron redraws it (default true). The reconfigure comes in a batch of its own at the
  /// end of the update when the update moves rows (UIKit's rules). Turn it off when the view
  /// draws the disclosure itself (`NSOutlineView`) or rows show none.
  ///
  /// ```swift
  /// presenter.reconfiguresDisclosureChanges = false   // a flat list: no chevrons to redraw
  /// ```
  public var reconfiguresDisclosureChanges = true
  /// Called after every update, once its batches were handed to the renderer (the changeset is
  /// empty when the version changed nothing visible).
  public var didUpdate: ((Changeset) -> Void)?

  /// The version whose rows the view shows.
  public internal(set) var version: Version
  /// The list the shown rows come from (during a multi-stage update: the update's target).
  public internal(set) var snapshot: Snapshot

  /// Rows the view shows that are not `snapshot`'s visible rows: an intermediate stage of a
  /// split changeset, or the layout a view left after an interactive move.
  var stagedRows: Rows?
  /// `stagedRows` by identifier, built on first use.
  var stagedIndex: [Item.ID: ListIndexPath]?
  /// During an intermediate stage: the list before the update, for rows the target has deleted.
  var previousSnapshot: Snapshot?
  /// The shown section identifiers, in order.
  var sectionIDs: [Section.ID]
  var isUpdating = false
  /// Counts the changes of the rows the presenter answers with, so adapters that cache a layout
  /// derived from them (``ListTableAdapter``) know when to rebuild it.
  var layoutGeneration = 0
  /// Told after every update, once the presenter shows its target, with the list before, the
  /// list after and the events between them when known: how ``ListOutlineAdapter``, which
  /// follows the outline rather than the rows, sees changes (empty row changesets included).
  var treeObserver: ((_ old: Snapshot, _ new: Snapshot, _ events: [ListEvent<Section, Item>]?) -> Void)?
  /// The events of the update being rendered, for `treeObserver`.
  var updateEvents: [ListEvent<Section, Item>]?
  /// While positive, queued changes wait (the view is finishing an interactive move).
  var suspensions = 0
  let mailbox = _ChangeMailbox<Section, Item>()
  /// Releasing the presenter releases it, which ends the observation.
  let observation: ListStoreObservation

  /// A presenter showing the store's head; it follows every later change.
  ///
  /// - Complexity: O(sections).
  public init(store: ListStore<Section, Item>) {
    self.store = store
    // Observe first, then read: a change in between is delivered and diffs to nothing.
    let mailbox = self.mailbox
    let token = store.observe { mailbox.post($0) }
    let head = store.head
    let snapshot = (try? store.state(at: head)) ?? store.snapshot
    self.version = head
    self.snapshot = snapshot
    self.sectionIDs = snapshot.sectionIdentifiers
    self.observation = token
    mailbox.setConsumer { [weak self] in self?.applyQueuedChanges() }
  }
}
