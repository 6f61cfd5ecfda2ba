/// A version as the user writes it: a number, `head`, or `head~N` (N versions up the head's
/// parent chain).
///
/// ```swift
/// VersionReference("head~2")   // .head(back: 2)
/// VersionReference("7")        // .number(7)
/// ```
enum VersionReference: Equatable, Sendable, CustomStringConvertible {
  case number(Int)
  case head(back: Int)

  /// Parses `N`, `head` or `head~N`; nil for anything else.
  init?(_ text: String) {
    if text == "head" {
      self = .head(back: 0)
    } else if text.hasPrefix("head~") {
      guard let back = Int(text.dropFirst(5)), back >= 0 else { return nil }
      self = .head(back: back)
    } else if let number = Int(text), number >= 0 {
      self = .number(number)
    } else {
      return nil
    }
  }

  var description: String {
    switch self {
    case .number(let number): return String(number)
    case .head(let back): return back == 0 ? "head" : "head~\(back)"
    }
  }
}
