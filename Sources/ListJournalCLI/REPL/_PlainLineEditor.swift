/// Reads lines from stdin without editing, for a REPL fed through a pipe: no prompt, no
/// history, so its output is just the commands' output.
final class _PlainLineEditor: LineEditor {
  func readLine(prompt: String) -> String? {
    OutputStream.standardOutput.flush()
    return Swift.readLine(strippingNewline: true)
  }

  func addHistory(_ line: String) {}
}
