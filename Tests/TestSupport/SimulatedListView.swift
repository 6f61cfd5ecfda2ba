import ListDiff
import ListState

/// A collection view for tests: it shows visible rows and, at the end of every batch, checks the
/// batch as UIKit would — its operations, applied to the rows shown before it under UIKit's batch
/// rules (``ChangesetValidator``), must give exactly the rows the data source shows after it — and
/// that the data source was updated inside the batch, before its first operation.
///
/// ```swift
/// let view = SimulatedListView(showing: ListVisibleRows(old))
/// changeset.apply(to: view) { rows in view.dataSource = rows ?? ListVisibleRows(new) }
/// #expect(view.shown == ListVisibleRows(new) && view.failures.isEmpty)
/// ```
@MainActor
public final class SimulatedListView<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: ListBatchUpdateTarget {
  public typealias Rows = ListVisibleRows<SectionID, ItemID>

  /// The rows the view shows (after its last batch or reload).
  public private(set) var shown: Rows
  /// The rows the data source shows; the test's `setData` sets them.
  public var dataSource: Rows {
    didSet { if batch != nil { dataSetInBatch = true } }
  }
  public var isShowingRows: Bool
  /// What went wrong, one line per problem (empty when every batch was valid).
  public private(set) var failures: [String] = []
  /// Batches run, full reloads, completions called.
  public private(set) var batches = 0
  public private(set) var reloads = 0
  public private(set) var completions: [Bool] = []

  private var batch: ListChangeset<SectionID, ItemID>.Stage?
  private var dataSetInBatch = false
  private var operationBeforeData = false

  public init(showing rows: Rows, onScreen: Bool = true) {
    shown = rows
    dataSource = rows
    isShowingRows = onScreen
  }

  public func reloadAllRows() {
    reloads += 1
    shown = dataSource
  }

  public func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?) {
    guard batch == nil else {
      failures.append("a batch inside a batch")
      return
    }
    batches += 1
    batch = ListChangeset<SectionID, ItemID>.Stage()
    dataSetInBatch = false
    operationBeforeData = false
    updates()
    let stage = batch!
    batch = nil
    if !dataSetInBatch { failures.append("batch \(batches): the data source was not updated inside it") }
    if operationBeforeData { failures.append("batch \(batches): an operation came before the data source was updated") }
    check(stage)
    shown = dataSource
    if let completion {
      completions.append(true)
      completion(true)
    }
  }

  /// Validates one batch from the rows shown to the data source's, reloads as listed.
  private func check(_ stage: ListChangeset<SectionID, ItemID>.Stage) {
    guard !stage.isEmpty else {
      if shown != dataSource { failures.append("batch \(batches): an empty batch changed the rows") }
      return
    }
    var named = stage
    let before = shown
    named.reloadedSections = stage.sectionReloads.map { before.sectionIdentifiers[$0] }
    named.reloadedItems = stage.itemReloads.map { before.rows[$0.section][$0.row] }
    named.reconfiguredItems = stage.itemReconfigures.map { before.rows[$0.section][$0.row] }
    named.deletedSections = stage.sectionDeletes.map { before.sectionIdentifiers[$0] }
    named.insertedSections = stage.sectionInserts.map { dataSource.sectionIdentifiers[$0] }
    named.movedSections = stage.sectionMoves.map { before.sectionIdentifiers[$0.from] }
    named.deletedItems = stage.itemDeletes.map { before.rows[$0.section][$0.row] }
    named.insertedItems = stage.itemInserts.map { dataSource.rows[$0.section][$0.row] }
    named.movedItems = stage.itemMoves.map { before.rows[$0.from.section][$0.from.row] }
    do {
      try ChangesetValidator().validate(
        ListChangeset(stages: [named]), from: before, to: dataSource,
        reloadedSections: Set(named.reloadedSections), reloadedItems: Set(named.reloadedItems),
        reconfiguredItems: Set(named.reconfiguredItems))
    } catch {
      failures.append("batch \(batches): \(error)")
    }
  }

  private func record(_ change: (inout ListChangeset<SectionID, ItemID>.Stage) -> Void) {
    guard batch != nil else {
      failures.append("an operation outside a batch")
      return
    }
    if !dataSetInBatch { operationBeforeData = true }
    change(&batch!)
  }

  /// What UIKit does when the user drops a dragged row: the view moves that one row itself, and
  /// only then tells the data source, which must not animate the move again.
  public func userMovedRow(from source: ListIndexPath, to destination: ListIndexPath) {
    let id = shown.rows[source.section].remove(at: source.row)
    shown.rows[destination.section].insert(id, at: destination.row)
  }

  public func deleteSections(_ sections: [Int]) { record { $0.sectionDeletes += sections } }
  public func insertSections(_ sections: [Int]) { record { $0.sectionInserts += sections } }
  public func moveSection(_ section: Int, to destination: Int) {
    record { $0.sectionMoves.append(ListMove(from: section, to: destination)) }
  }
  public func reloadSections(_ sections: [Int]) { record { $0.sectionReloads += sections } }
  public func deleteRows(_ rows: [ListIndexPath]) { record { $0.itemDeletes += rows } }
  public func insertRows(_ rows: [ListIndexPath]) { record { $0.itemInserts += rows } }
  public func moveRow(_ row: ListIndexPath, to destination: ListIndexPath) {
    record { $0.itemMoves.append(ListMove(from: row, to: destination)) }
  }
  public func reloadRows(_ rows: [ListIndexPath]) { record { $0.itemReloads += rows } }
  /// Records reconfigures apart from reloads (the default would forward them to ``reloadRows(_:)``).
  public func reconfigureRows(_ rows: [ListIndexPath]) { record { $0.itemReconfigures += rows } }
}
