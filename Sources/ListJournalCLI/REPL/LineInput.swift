/// What reading one line of the REPL gave.
///
/// ```swift
/// switch editor.readLine(prompt: "v0> ") {
/// case .line(let text): run(text)
/// case .cancelled(let typed): continue   // Ctrl-C: nothing runs
/// case .end: break                       // Ctrl-D or the end of a pipe
/// }
/// ```
enum LineInput: Equatable, Sendable {
  case line(String)
  /// Ctrl-C: what had been typed, which is dropped.
  case cancelled(typed: String)
  case end
}
