import ListDiff
import ListState

/// Forwards a presenter's batches to an adapter without keeping it alive (the adapter keeps the
/// presenter); once the adapter is gone, the presenter only keeps its rows.
@MainActor
struct _WeakRenderer<Target: AnyObject & ListBatchUpdateTarget>: ListBatchUpdateTarget {
  weak var target: Target?

  init(_ target: Target) { self.target = target }

  var isShowingRows: Bool { target?.isShowingRows ?? false }
  func reloadAllRows() { target?.reloadAllRows() }
  func performBatch(_ updates: () -> Void, completion: ((Bool) -> Void)?) {
    if let target { target.performBatch(updates, completion: completion) } else { updates() }
  }
  func deleteSections(_ sections: [Int]) { target?.deleteSections(sections) }
  func insertSections(_ sections: [Int]) { target?.insertSections(sections) }
  func moveSection(_ section: Int, to destination: Int) { target?.moveSection(section, to: destination) }
  func reloadSections(_ sections: [Int]) { target?.reloadSections(sections) }
  func deleteRows(_ rows: [ListIndexPath]) { target?.deleteRows(rows) }
  func insertRows(_ rows: [ListIndexPath]) { target?.insertRows(rows) }
  func moveRow(_ row: ListIndexPath, to destination: ListIndexPath) { target?.moveRow(row, to: destination) }
  func reloadRows(_ rows: [ListIndexPath]) { target?.reloadRows(rows) }
  func reconfigureRows(_ rows: [ListIndexPath]) { target?.reconfigureRows(rows) }
}
