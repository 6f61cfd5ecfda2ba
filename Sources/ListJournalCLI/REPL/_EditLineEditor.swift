import CEdit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The completion source of the one live editor (libedit's callbacks are plain C functions
/// without a context pointer, so it has to be global). Set and read on the REPL's thread only.
nonisolated(unsafe) private var completionSource: ((_ word: String, _ isCommandName: Bool) -> [String])?
nonisolated(unsafe) private var pendingMatches: [String] = []

/// libedit's readline interface: line editing, arrow-up history, tab completion.
final class _EditLineEditor: LineEditor {
  init(completions: @escaping (_ word: String, _ isCommandName: Bool) -> [String]) {
    completionSource = completions
    listjournal_edit_configure(UnsafePointer(strdup("listjournal"))) { text, start, _ in
      let word = text.map { String(cString: $0) } ?? ""
      // The first word of the line is a command name; the rest are identifiers or keywords.
      let prefixIsBlank: Bool = {
        guard let buffer = listjournal_edit_line_buffer(), start > 0 else { return true }
        for offset in 0..<Int(start) where buffer[offset] != 0x20 && buffer[offset] != 0x09 { return false }
        return true
      }()
      pendingMatches = (completionSource?(word, prefixIsBlank) ?? []).filter { $0.hasPrefix(word) }
      guard !pendingMatches.isEmpty else { return nil }
      return rl_completion_matches(text) { _, state in
        if state == 0 { pendingMatches.reverse() }
        guard let next = pendingMatches.popLast() else { return nil }
        return strdup(next)
      }
    }
  }

  func readLine(prompt: String) -> String? {
    OutputStream.standardOutput.flush()
    guard let line = readline(prompt) else { return nil }
    defer { free(line) }
    return String(cString: line)
  }

  func addHistory(_ line: String) {
    _ = add_history(line)
  }
}
