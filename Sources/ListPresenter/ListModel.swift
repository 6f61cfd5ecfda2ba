import Foundation
import ListHistory
import ListState
import Observation

/// An observable view of a ``ListStore`` for SwiftUI: sections and visible rows that `List`,
/// `ForEach` and `Section` read directly, expansion state to bind to disclosure controls, and
/// `onMove`/`onDelete` handlers in SwiftUI's shapes — each gesture one undoable version.
///
/// Observation fires once per version the model takes in — a transaction of a hundred
/// operations, an undo or a redo is one change for SwiftUI — and never for events inside it.
/// The model runs on the main actor; store changes from other threads reach it there.
///
/// ```swift
/// @State var model = ListModel(store: journal.store)
///
/// List {
///     ForEach(model.sections) { section in
///         Section(section.section.title) {
///             ForEach(section.rows) { row in RowView(row: row) }
///                 .onMove { model.move(fromOffsets: $0, toOffset: $1, inSection: section.id) }
///                 .onDelete { model.delete(atOffsets: $0, inSection: section.id) }
///         }
///     }
/// }
/// ```
@MainActor
@Observable
public final class ListModel<Section: ListElement, Item: ListElement> {
  /// The core the model reads from (no renderer: SwiftUI diffs by identity itself).
  @ObservationIgnored public let presenter: ListPresenter<Section, Item>
  /// Called with the error of a handler that could not record its gesture (a stale offset, a
  /// failing journal); SwiftUI's handlers cannot throw.
  @ObservationIgnored public var onError: ((any Error) -> Void)?

  /// What the model shows. Not `Equatable` on purpose: Observation would compare snapshots
  /// (O(n)) on every assignment and stay silent for a version that changed nothing visible.
  struct Shown {
    var snapshot: ListSnapshot<Section, Item>
    var version: Version
  }

  /// Replaced once per version (or run of versions) the model takes in.
  var shown: Shown

  /// The list the model shows.
  public var snapshot: ListSnapshot<Section, Item> { shown.snapshot }
  /// The version the model shows.
  public var version: Version { shown.version }

  /// A model showing the store's head and following every later change.
  ///
  /// - Complexity: O(sections).
  public init(store: ListStore<Section, Item>) {
    presenter = ListPresenter(store: store)
    shown = Shown(snapshot: presenter.snapshot, version: presenter.version)
    presenter.didUpdate = { [weak self] _ in
      guard let self else { return }
      shown = Shown(snapshot: presenter.snapshot, version: presenter.version)
    }
  }

  /// The store the model shows.
  public var store: ListStore<Section, Item> { presenter.store }

  /// The undo labels of gesture versions.
  public var labels: ListGestureLabels {
    get { presenter.labels }
    set { presenter.labels = newValue }
  }

  /// The sections, in order, each with its visible rows.
  ///
  /// - Complexity: O(sections · log n).
  public var sections: [ListModelSection<Section, Item>] {
    let snapshot = snapshot
    return snapshot.sectionIdentifiers.enumerated().map { index, id in
      ListModelSection(id: id, section: snapshot.section(id)!, rows: ListRows(snapshot, sectionIndex: index, sectionID: id))
    }
  }

  /// The visible rows of one section (empty when it is absent).
  ///
  /// - Complexity: O(log n).
  public func rows(inSection id: Section.ID) -> ListRows<Section, Item> {
    let snapshot = snapshot
    guard let index = snapshot.index(ofSection: id) else { return ListRows(snapshot, sectionIndex: 0, sectionID: id) }
    return ListRows(snapshot, sectionIndex: index, sectionID: id)
  }
}
