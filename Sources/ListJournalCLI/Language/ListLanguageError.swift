/// A line of the list language that could not be tokenized, parsed or applied.
///
/// It always names the line (1-based) and, for syntax errors, the column (1-based, in bytes),
/// so a script author can jump straight to the offending token.
///
/// ```swift
/// ListLanguageError(line: 3, column: 7, message: "unterminated quoted token").description
/// // "line 3, column 7: unterminated quoted token"
/// ```
struct ListLanguageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// 1-based line number; 0 while the line is not known yet (the interpreter fills it in).
  var line: Int
  /// 1-based byte column of the offending token, when the error is about one token.
  var column: Int?
  var message: String

  init(line: Int = 0, column: Int? = nil, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  var description: String {
    if let column { return "line \(line), column \(column): \(message)" }
    return "line \(line): \(message)"
  }

  /// The same error attributed to `line`.
  func at(line: Int) -> ListLanguageError {
    var copy = self
    copy.line = line
    return copy
  }
}
