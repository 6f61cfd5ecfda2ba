/// One step of an update that a view applies in order, each step's indexes counted in the rows
/// the steps before it left — how `NSTableView` and `NSOutlineView` read the calls between
/// `beginUpdates()` and `endUpdates()` (unlike UIKit's batches, whose indexes all refer to the
/// state before or after the whole batch).
///
/// ```swift
/// // rows a, b, c, d → d, a, c
/// [.remove([1]), .move(2, to: 0)]
/// ```
public enum ListSequentialUpdate: Hashable, Sendable {
  /// Removes the rows at these indexes, all counted before the step (ascending).
  case remove([Int])
  /// Inserts rows that end at these indexes (ascending): the same as inserting them one by one,
  /// lowest first.
  case insert([Int])
  /// Removes the row at the first index, then inserts it at the second, counted without it.
  case move(Int, to: Int)
}
