import ListHistory
import ListState
import TestSupport
import Testing

/// The head's reload/reconfigure markers after a checkout are "those of the last change", so
/// they must not depend on whether the store walked the path or jumped through a checkpoint.
@Suite struct CheckoutMarkerTests {
  /// v1 section, v2 items a and b, v3 updates a, v4 marks b reloaded, v5…v44 append x0…x39; then
  /// `checkout(v4)` from v44, which only reverts the appends.
  func checkoutAfterLongBranch(checkpointInterval: Int) throws -> (store: ListStore<String, TestItem>, change: ListChange<String, TestItem>) {
    let store = ListStore<String, TestItem>(checkpointInterval: checkpointInterval)
    try store.appendSections(["S"])
    try store.appendItems([TestItem("a", content: "1"), TestItem("b")])
    try store.updateItem(TestItem("a", content: "2"))
    try store.reloadItems(["b"])
    for index in 0..<40 { try store.appendItems([TestItem("x\(index)")]) }
    return (store, try store.checkout(Version(4)))
  }

  @Test func walkedCheckoutMarksNothingItDidNotChange() throws {
    let (store, change) = try checkoutAfterLongBranch(checkpointInterval: 1_024)
    #expect(change.events != nil)  // walked: 40 reverted appends
    #expect(store.snapshot.reloadedItemIdentifiers.isEmpty && store.snapshot.reconfiguredItemIdentifiers.isEmpty)
  }

  /// Regression: a checkout that jumps through a checkpoint folds older events onto the base;
  /// their markers (a and b reloaded, from v3 and v4) must not leak into the head or the change,
  /// or `ListChangeset(from: initial, to: final)` would reload both rows for nothing.
  @Test func jumpedCheckoutMarksLikeTheWalkedOne() throws {
    let (store, change) = try checkoutAfterLongBranch(checkpointInterval: 10)
    #expect(change.events == nil)  // jumped through a checkpoint
    #expect(try Canonical(store.state(at: Version(4))) == Canonical(store.snapshot))
    #expect(store.snapshot.reloadedItemIdentifiers.isEmpty)
    #expect(change.transaction.finalSnapshot.reloadedItemIdentifiers.isEmpty)
  }
}
