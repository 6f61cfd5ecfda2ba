/// One token of a list-language line: a word or a double-quoted string.
///
/// Quoted tokens are never keywords: `append "to"` appends an item named `to`. `a="Apple"`
/// is two tokens, the first binding the second as its content.
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
  /// True when the token was glued to the quoted token after it by `=` (`a="Apple"`): that
  /// token is this identifier's content.
  var bindsContent = false

  /// True when this token is the unquoted keyword `word`.
  @inline(__always)
  func isKeyword(_ word: String) -> Bool { !isQuoted && !bindsContent && text == word }
}
