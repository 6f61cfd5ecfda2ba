/// Where on the line the word being completed stands, which decides what completes it.
///
/// ```swift
/// CompletionPosition.argument(of: "checkout")   // versions complete here
/// ```
enum CompletionPosition: Equatable, Sendable {
  /// The first word: a command name.
  case commandName
  /// A later word of the command named.
  case argument(of: String)
}
