/// A table that shows one list of rows and applies updates one step after another, as
/// `NSTableView` does between `beginUpdates()` and `endUpdates()`: what ``ListTableAdapter``
/// drives. The AppKit data source in ListJournalUIKit forwards each requirement to the view;
/// tests simulate one.
///
/// ```swift
/// struct Table: ListTableUpdateTarget {
///     let view: NSTableView
///     func apply(_ update: ListSequentialUpdate) {
///         switch update {
///         case .remove(let rows): view.removeRows(at: IndexSet(rows), withAnimation: .effectFade)
///         …
///         }
///     }
/// }
/// ```
@MainActor
public protocol ListTableUpdateTarget {
  /// Whether the table is on screen; off screen it is reloaded instead of animated.
  var isShowingRows: Bool { get }
  /// Reloads every row from the data source.
  func reloadData()
  /// Starts a group of animated steps (`beginUpdates()`).
  func beginUpdates()
  /// Applies one step; its indexes count the rows the previous steps left.
  func apply(_ update: ListSequentialUpdate)
  /// Ends the group (`endUpdates()`).
  func endUpdates()
  /// Reloads the cells of rows, after the group, at their current indexes.
  func reloadRows(_ rows: [Int])
}
