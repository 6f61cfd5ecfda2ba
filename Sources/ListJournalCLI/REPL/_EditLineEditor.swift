import CEdit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one live editor: libedit's key callbacks are plain C functions without a context, so
/// they find it here. Set and read on the REPL's thread only.
nonisolated(unsafe) private var activeEditor: _EditLineEditor?

/// libedit: emacs-style line editing, history kept in the user's history file, Tab completion
/// (commands, identifiers — quoted ones too — and versions), Ctrl-C cancelling the line.
final class _EditLineEditor: LineEditor {
  private let editLine: OpaquePointer
  private let historyList: OpaquePointer
  private let historyFile: ReplHistoryFile?
  private let completions: (_ word: String, _ position: CompletionPosition) -> [String]
  /// The prompt as libedit reads it (a C string this editor owns).
  fileprivate var prompt: UnsafeMutablePointer<CChar>?
  fileprivate var cancelled = false

  init?(historyFile: ReplHistoryFile?, completions: @escaping (_ word: String, _ position: CompletionPosition) -> [String]) {
    guard let history = listjournal_history_open(Int32(historyFile?.capacity ?? ReplHistoryFile.defaultCapacity)) else {
      return nil
    }
    guard
      let editLine = listjournal_edit_open(
        "listjournal", { _ in activeEditor?.prompt }, history,
        { editLine, _ in activeEditor?.complete(editLine) ?? UInt8(CC_ERROR) },
        { editLine, _ in activeEditor?.cancel(editLine) ?? UInt8(CC_ERROR) })
    else {
      history_end(history)
      return nil
    }
    self.editLine = editLine
    self.historyList = history
    self.historyFile = historyFile
    self.completions = completions
    if let historyFile { _ = listjournal_history_load(history, historyFile.path) }
    activeEditor = self
  }

  deinit {
    el_end(editLine)
    history_end(historyList)
    free(prompt)
  }

  func readLine(prompt text: String) -> LineInput {
    OutputStream.standardOutput.flush()
    free(prompt)
    prompt = strdup(text)
    cancelled = false
    var count: Int32 = 0
    guard let line = el_gets(editLine, &count), count > 0 else { return .end }
    var text = String(cString: line)
    if text.hasSuffix("\n") { text.removeLast() }
    if cancelled { return .cancelled(typed: String(text.dropLast(2))) }
    return .line(text)
  }

  func addHistory(_ line: String) {
    _ = listjournal_history_enter(historyList, line)
    guard let historyFile, historyFile.createDirectory() else { return }
    _ = listjournal_history_save(historyList, historyFile.path)
  }

  var history: [String] {
    var lines: [String] = []
    var next = listjournal_history_step(historyList, 1)
    while let line = next {
      lines.append(String(cString: line))
      next = listjournal_history_step(historyList, 0)
    }
    return lines
  }

  /// Ctrl-C: shows `^C` at the end of the line and ends it; `readLine` drops the line.
  fileprivate func cancel(_ editLine: OpaquePointer?) -> UInt8 {
    guard let editLine, let info = el_line(editLine), let end = info.pointee.lastchar, let cursor = info.pointee.cursor
    else { return UInt8(CC_ERROR) }
    el_cursor(editLine, Int32(end - cursor))
    _ = el_insertstr(editLine, "^C")
    // The line is redrawn with its `^C`, then ended by a newline queued as the next key.
    el_push(editLine, "\n")
    cancelled = true
    return UInt8(CC_REFRESH)
  }

  /// Tab: completes the word before the cursor, or lists the candidates when they disagree.
  fileprivate func complete(_ editLine: OpaquePointer?) -> UInt8 {
    guard let editLine, let info = el_line(editLine), let buffer = info.pointee.buffer, let cursor = info.pointee.cursor
    else { return UInt8(CC_ERROR) }
    let typed = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
    let (word, position) = Self.wordBeforeCursor(typed)
    let matches = Self.matches(for: word, among: completions(word, position))
    guard !matches.isEmpty else { return UInt8(CC_ERROR) }
    if matches.count == 1 {
      replace(word, with: matches[0] + (matches[0].hasSuffix("~") ? "" : " "))
      return UInt8(CC_REFRESH)
    }
    let common = Self.commonPrefix(matches)
    if common.count > word.count || (!common.isEmpty && !word.hasPrefix("\"") && common.hasPrefix("\"")) {
      replace(word, with: common)
      return UInt8(CC_REFRESH)
    }
    OutputStream.standardOutput.write("\n" + Self.columns(matches, width: ReplTerminal.width()))
    OutputStream.standardOutput.flush()
    return UInt8(CC_REDISPLAY)
  }

  private func replace(_ word: String, with text: String) {
    el_deletestr(editLine, Int32(word.unicodeScalars.count))
    _ = el_insertstr(editLine, text)
  }

  /// The word the cursor ends (an unclosed quoted word from its quote) and its position.
  static func wordBeforeCursor(_ text: String) -> (word: String, position: CompletionPosition) {
    var words: [String] = []
    var current = ""
    var inQuote = false
    var escaped = false
    var started = false
    for character in text {
      if inQuote {
        current.append(character)
        if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inQuote = false }
      } else if character == " " || character == "\t" {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
        if character == "\"" { inQuote = true }
      }
    }
    guard let command = words.first else { return (current, .commandName) }
    return (current, .argument(of: command))
  }

  /// The candidates `word` begins; an unquoted word also matches inside a quoted candidate.
  static func matches(for word: String, among candidates: [String]) -> [String] {
    var seen = Set<String>()
    return candidates.filter { candidate in
      let matches =
        candidate.hasPrefix(word) || (!word.hasPrefix("\"") && candidate.hasPrefix("\"") && candidate.dropFirst().hasPrefix(word))
      return matches && seen.insert(candidate).inserted
    }
  }

  static func commonPrefix(_ words: [String]) -> String {
    guard var prefix = words.first else { return "" }
    for word in words.dropFirst() {
      while !word.hasPrefix(prefix) { prefix.removeLast() }
    }
    return prefix
  }

  /// Candidates in columns across `width`, as shells list them; long lists say how many.
  static func columns(_ words: [String], width: Int) -> String {
    let shown = words.prefix(200)
    let cell = (shown.map(\.count).max() ?? 0) + 2
    let perLine = max(1, width / cell)
    var text = ""
    for (index, word) in shown.enumerated() {
      let last = index % perLine == perLine - 1 || index == shown.count - 1
      text += last ? word + "\n" : word + String(repeating: " ", count: cell - word.count)
    }
    if words.count > shown.count { text += "… and \(words.count - shown.count) more\n" }
    return text
  }
}
