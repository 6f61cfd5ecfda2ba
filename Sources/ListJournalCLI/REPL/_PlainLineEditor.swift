/// Reads lines from stdin without editing, for a REPL fed through a pipe: no prompt, no
/// history, so its output is just the commands' output.
final class _PlainLineEditor: LineEditor {
  func readLine(prompt: String) -> LineInput {
    OutputStream.standardOutput.flush()
    return Swift.readLine(strippingNewline: true).map { .line($0) } ?? .end
  }

  func addHistory(_ line: String) {}

  var history: [String] { [] }
}
