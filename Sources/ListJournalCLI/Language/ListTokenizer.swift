/// Splits one line of the list language into tokens.
///
/// Tokens are separated by spaces (or tabs); `#` outside quotes starts a comment that runs to
/// the end of the line; a token written in double quotes may hold spaces and `#`, with `\"`,
/// `\\`, `\n` (line feed), `\r` (carriage return) and `\t` (tab) as the only escapes.
/// `ID="content"` (the identifier bare or quoted) gives an identifier its content: two tokens,
/// the first marked ``ListToken/bindsContent``. Any other quote inside an unquoted word, text
/// glued to a closing quote, an unknown escape and a missing closing quote are errors naming
/// the column.
///
/// It works on UTF-8 bytes, never on `Character`s, because `exec` tokenizes millions of lines.
///
/// ```swift
/// try ListTokenizer.tokenize(#"set a "hello \"world\"" # greet"#)
/// // [set, a, hello "world"]
/// ```
///
/// - Complexity: O(n) in the line's length.
enum ListTokenizer {
  private static let space: UInt8 = 0x20
  private static let tab: UInt8 = 0x09
  private static let carriageReturn: UInt8 = 0x0D
  private static let quote: UInt8 = 0x22
  private static let backslash: UInt8 = 0x5C
  private static let hash: UInt8 = 0x23
  private static let equals: UInt8 = 0x3D

  /// Tokenizes a line given as a `String`.
  static func tokenize(_ line: String) throws(ListLanguageError) -> [ListToken] {
    var copy = line
    let result: Result<[ListToken], ListLanguageError> = copy.withUTF8 { bytes in
      do throws(ListLanguageError) { return .success(try tokenize(bytes)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// Tokenizes a line given as UTF-8 bytes (without its line terminator).
  static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>) throws(ListLanguageError) -> [ListToken] {
    var tokens: [ListToken] = []
    tokens.reserveCapacity(8)  // one allocation for a typical line instead of a regrowth per token
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte == space || byte == tab || byte == carriageReturn {
        index += 1
        continue
      }
      if byte == hash { break }
      if byte == quote {
        let start = index
        index += 1
        // Bytes are copied into `text` only once an escape shows up; until then the token is the
        // slice after the opening quote (most quoted tokens have no escape: no buffer to grow).
        var text: [UInt8] = []
        var escaped = false
        var closed = false
        while index < count {
          let b = bytes[index]
          if b == quote {
            closed = true
            index += 1
            break
          }
          if b == backslash {
            if !escaped {
              escaped = true
              text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]))
            }
            guard index + 1 < count else { break }
            let escapedByte = bytes[index + 1]
            guard let unescaped = Self.unescaped(escapedByte) else {
              throw ListLanguageError(
                column: index + 1,
                message: "unknown escape '\\\(String(decoding: [escapedByte], as: UTF8.self))' (only \\\", \\\\, \\n, \\r and \\t are allowed)")
            }
            text.append(unescaped)
            index += 2
            continue
          }
          if escaped { text.append(b) }
          index += 1
        }
        guard closed else {
          throw ListLanguageError(column: start + 1, message: "unterminated quoted token")
        }
        let binds = index + 1 < count && bytes[index] == equals && bytes[index + 1] == quote
        if index < count, !binds, !isSeparator(bytes[index]) {
          throw ListLanguageError(
            column: index + 1, message: "a closing quote must be followed by a space")
        }
        let content =
          escaped
          ? String(decoding: text, as: UTF8.self)
          : String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)]), as: UTF8.self)
        tokens.append(ListToken(text: content, isQuoted: true, column: start + 1, bindsContent: binds))
        if binds {
          guard tokens.count < 2 || !tokens[tokens.count - 2].bindsContent else {
            throw ListLanguageError(column: start + 1, message: "a content cannot have a content")
          }
          index += 1
        }
        continue
      }
      let start = index
      var binds = false
      while index < count {
        let b = bytes[index]
        if b == space || b == tab || b == carriageReturn || b == hash { break }
        if b == quote {
          // `a="Apple"`: the word ends before the `=`, and the quoted content follows.
          if index - 1 > start, bytes[index - 1] == equals {
            binds = true
            break
          }
          throw ListLanguageError(
            column: index + 1, message: "a quote inside a word; quote the whole token instead")
        }
        index += 1
      }
      let end = binds ? index - 1 : index
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      tokens.append(ListToken(text: text, isQuoted: false, column: start + 1, bindsContent: binds))
    }
    return tokens
  }

  /// The byte an escape `\X` stands for; nil for an unknown escape.
  @inline(__always)
  private static func unescaped(_ byte: UInt8) -> UInt8? {
    switch byte {
    case quote, backslash: byte
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): carriageReturn
    case UInt8(ascii: "t"): tab
    default: nil
    }
  }

  @inline(__always)
  private static func isSeparator(_ byte: UInt8) -> Bool {
    byte == space || byte == tab || byte == carriageReturn || byte == hash
  }

  /// Writes `text` as one token: bare when that reads back identically, quoted otherwise.
  ///
  /// ```swift
  /// ListTokenizer.quoted("a b")   // "\"a b\""
  /// ListTokenizer.quoted("ab")    // "ab"
  /// ```
  static func quoted(_ text: String, force: Bool = false) -> String {
    let needsQuotes =
      force || text.isEmpty
      || text.utf8.contains { $0 == space || $0 == tab || $0 == carriageReturn || $0 == hash || $0 == quote || $0 == backslash || $0 == 0x0A }
    guard needsQuotes else { return text }
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      // A line break written raw would end the line: escaped, so a line reads back whole.
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      default: result.unicodeScalars.append(scalar)
      }
    }
    result += "\""
    return result
  }
}
