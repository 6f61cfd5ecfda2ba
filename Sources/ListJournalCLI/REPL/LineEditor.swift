/// Where the REPL gets its lines: libedit on a terminal, plain reading otherwise.
///
/// ```swift
/// let editor = LineEditors.make(completions: { word, isFirst in … })
/// while let line = editor.readLine(prompt: "v0> ") { … }
/// ```
protocol LineEditor: AnyObject {
  /// The next line without its newline; nil at end of input.
  func readLine(prompt: String) -> String?
  /// Remembers a line for arrow-up history.
  func addHistory(_ line: String)
}
