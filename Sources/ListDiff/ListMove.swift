/// A move in a batch update: `from` is a position in the batch's before state, `to` one in its
/// after state. `Position` is `Int` for sections and ``ListIndexPath`` for rows.
///
/// ```swift
/// let move = ListMove(from: 3, to: 0)   // the section at 3 ends first
/// ```
public struct ListMove<Position: Hashable & Sendable>: Hashable, Sendable {
  /// The position in the batch's before state.
  public var from: Position
  /// The position in the batch's after state.
  public var to: Position

  /// A move from `from` (before the batch) to `to` (after it).
  public init(from: Position, to: Position) {
    self.from = from
    self.to = to
  }
}
