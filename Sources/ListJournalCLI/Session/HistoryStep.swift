/// One version crossed by `undo` or `redo`, for the REPL's "undid …" message.
///
/// ```swift
/// HistoryStep(version: 3, label: "Move Item", operations: ["move a after b"]).description
/// // "3 Move Item: move a after b"
/// ```
struct HistoryStep: Equatable, Sendable, CustomStringConvertible {
  /// The version whose changes were undone (or redone).
  var version: Int
  var label: String
  /// The operations of that version, in the list language when known.
  var operations: [String]

  var description: String {
    operations.isEmpty ? "\(version) \(label)" : "\(version) \(label): \(operations.joined(separator: "; "))"
  }
}
