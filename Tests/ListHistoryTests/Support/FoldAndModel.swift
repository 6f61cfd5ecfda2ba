import ListHistory
import ListState
import Testing

/// A `ListFold` and the model it must agree with (a `ListSnapshot`), fed the same events.
///
/// ```swift
/// var both = FoldAndModel<String, Int>()
/// try both.apply(.insertSection("S", items: ListOutline(items: [1, 2]), at: 0))
/// #expect(both.fold.snapshot() == both.model)
/// ```
struct FoldAndModel<Section: ListElement, Item: ListElement> {
  var fold = ListFold<Section, Item>()
  var model = ListSnapshot<Section, Item>()
  /// Whether every `apply` also checks that the fold's snapshot equals the model (O(n) a step).
  var checksEachStep = false

  /// Applies `event` to the fold, then to the model (an event the fold refuses reaches
  /// neither).
  mutating func apply(_ event: ListEvent<Section, Item>) throws {
    try fold.apply(event)
    try event.apply(to: &model)
    if checksEachStep { #expect(fold.snapshot() == model) }
  }
}
