/// Where the REPL gets its lines: libedit on a terminal, plain reading otherwise.
///
/// ```swift
/// let editor = LineEditors.make(historyFile: path, completions: { word, position in … })
/// while case .line(let line) = editor.readLine(prompt: "v0> ") { … }
/// ```
protocol LineEditor: AnyObject {
  /// The next line without its newline, a cancelled line (Ctrl-C), or the end of input.
  func readLine(prompt: String) -> LineInput
  /// Remembers a line for arrow-up history (and in the history file, when there is one).
  func addHistory(_ line: String)
  /// The remembered lines, oldest first.
  var history: [String] { get }
}
