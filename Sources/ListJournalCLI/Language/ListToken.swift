/// One token of a list-language line: a word or a double-quoted string.
///
/// Quoted tokens are never keywords: `append "to"` appends an item named `to`.
///
/// ```swift
/// ListToken(text: "to", isQuoted: true, column: 8)
/// ```
struct ListToken: Equatable, Sendable {
  /// The token's text with quotes removed and escapes resolved.
  var text: String
  /// True when the token was written in double quotes.
  var isQuoted: Bool
  /// 1-based byte column where the token starts (its opening quote for quoted tokens).
  var column: Int

  /// True when this token is the unquoted keyword `word`.
  @inline(__always)
  func isKeyword(_ word: String) -> Bool { !isQuoted && text == word }
}
