/// Whose expansion state an item keeps when a whole new snapshot is applied.
///
/// ```swift
/// try snapshot.apply(rebuilt, expansion: .keepCurrent)   // open folders stay open
/// ```
public enum ListExpansionPolicy: Sendable, Hashable {
  /// Items in both snapshots keep their current expanded/collapsed state (the default: a
  /// rebuilt snapshot usually knows nothing about what the user opened); new items take the
  /// target's.
  case keepCurrent
  /// Every item takes the target's state.
  case fromTarget
}
