#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chooses the line editor: libedit when stdin is a terminal, plain reading otherwise.
enum LineEditors {
  static func make(
    historyFile: ReplHistoryFile?,
    completions: @escaping (_ word: String, _ position: CompletionPosition) -> [String]
  ) -> any LineEditor {
    guard isatty(STDIN_FILENO) == 1, let editor = _EditLineEditor(historyFile: historyFile, completions: completions)
    else { return _PlainLineEditor() }
    return editor
  }
}
