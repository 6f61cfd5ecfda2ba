/// One entry of `log`: a version with its parent, time, label, operation count and summary.
///
/// ```swift
/// LogEntry(version: 2, parent: 1, time: 1_700_000_000, label: "Append 2 Items", eventCount: 1, changeCount: 2, isHead: true)
/// ```
struct LogEntry: Equatable, Sendable {
  var version: Int
  /// nil for version 0.
  var parent: Int?
  /// Seconds since 1970.
  var time: Double
  var label: String
  /// The events the version recorded (`info` and `replay` count these).
  var eventCount: Int
  /// `ops` in `log`: the sections and items the version changed (see ``ListEvent/changeCount``).
  var changeCount: Int
  var isHead: Bool
  /// What the version's events did ("insert a b", "move c"), at most a few; empty when unknown.
  var operations: [String] = []
  /// True for a version read past damage whose parent is not known (`← ?` in `log`).
  var parentIsLost = false
}
