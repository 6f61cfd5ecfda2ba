#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chooses the line editor: libedit when stdin is a terminal, plain reading otherwise.
enum LineEditors {
  static func make(completions: @escaping (_ word: String, _ isCommandName: Bool) -> [String]) -> any LineEditor {
    isatty(STDIN_FILENO) == 1 ? _EditLineEditor(completions: completions) : _PlainLineEditor()
  }
}
