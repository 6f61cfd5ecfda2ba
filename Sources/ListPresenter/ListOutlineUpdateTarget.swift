/// An outline view that shows a tree and applies updates one call after another, as
/// `NSOutlineView` does: what ``ListOutlineAdapter`` drives. The AppKit data source in
/// ListJournalUIKit forwards each requirement to the view; tests simulate one.
///
/// ```swift
/// func apply(_ update: ListOutlineUpdate<String, String>) {
///     switch update {
///     case .expand(let node): outlineView.expandItem(box(node))
///     …
///     }
/// }
/// ```
@MainActor
public protocol ListOutlineUpdateTarget<SectionID, ItemID> {
  associatedtype SectionID: Hashable & Sendable
  associatedtype ItemID: Hashable & Sendable
  /// Whether the view is on screen; off screen it is reloaded instead of animated.
  var isShowingRows: Bool { get }
  /// Reloads the whole outline from the data source (every item collapsed until expanded).
  func reloadData()
  /// Starts a group of animated removes, inserts and moves (`beginUpdates()`).
  func beginUpdates()
  /// Ends the group (`endUpdates()`); the view then reads the inserted items.
  func endUpdates()
  /// Applies one call.
  func apply(_ update: ListOutlineUpdate<SectionID, ItemID>)
}
