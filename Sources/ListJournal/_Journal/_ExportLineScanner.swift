/// Reads the fields import needs from one line of a JSON Lines export: the record's `kind`,
/// `version` and `payload` (base64), after checking that the whole line is one JSON object.
///
/// Why not `JSONSerialization`: an export line spells every event out (hundreds of bytes per
/// record) and import needs three of its fields; building Foundation objects for all of it made
/// importing a million records take minutes. This scanner validates the syntax of every value
/// it skips, so a malformed line is still refused.
///
/// ```swift
/// var scanner = _ExportLineScanner()
/// let fields = try scanner.scan(line)   // (kind: "commit", version: 3, payload: [...])
/// ```
/// - Complexity: O(line length), no allocation but the payload's bytes.
@usableFromInline
struct _ExportLineScanner {
  /// The fields of one line; nil where the line does not have them (or not of that type).
  @usableFromInline
  struct Fields {
    @usableFromInline var kind: String?
    @usableFromInline var version: Int64?
    /// The decoded payload; nil when absent, not a string or not valid base64.
    @usableFromInline var payload: [UInt8]?

    @inlinable
    init() {}
  }

  /// Why a line is not one JSON object.
  @usableFromInline
  struct Malformed: Error {
    @inlinable
    init() {}
  }

  /// Deeper nesting than this is refused rather than followed (a crafted line cannot exhaust
  /// the stack).
  @usableFromInline static let maximumDepth = 512

  @inlinable
  init() {}

  /// The fields of `line` (its bytes, without the line break).
  @inlinable
  func scan(_ line: UnsafeBufferPointer<UInt8>) throws(Malformed) -> Fields {
    var cursor = _Cursor(bytes: line)
    var fields = Fields()
    cursor.skipWhitespace()
    try cursor.expect(UInt8(ascii: "{"))
    cursor.skipWhitespace()
    if cursor.peek() == UInt8(ascii: "}") {
      cursor.index += 1
    } else {
      while true {
        cursor.skipWhitespace()
        let key = try cursor.string()
        cursor.skipWhitespace()
        try cursor.expect(UInt8(ascii: ":"))
        cursor.skipWhitespace()
        if cursor.is(key, "kind") {
          fields.kind = try cursor.stringValue()
        } else if cursor.is(key, "version") {
          fields.version = try cursor.integerValue()
        } else if cursor.is(key, "payload") {
          fields.payload = try cursor.base64Value()
        } else {
          try cursor.skipValue(depth: 0)
        }
        cursor.skipWhitespace()
        guard let next = cursor.next() else { throw Malformed() }
        if next == UInt8(ascii: "}") { break }
        guard next == UInt8(ascii: ",") else { throw Malformed() }
      }
    }
    cursor.skipWhitespace()
    guard cursor.isAtEnd else { throw Malformed() }
    return fields
  }
}

/// A position in one line's bytes, and the JSON grammar over it.
@usableFromInline
struct _Cursor {
  @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
  @usableFromInline var index = 0

  @inlinable
  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// A string token: the bytes between its quotes when it has no escapes, else its decoded text.
  @usableFromInline
  enum Token {
    case raw(Int, Int)
    case decoded(String)
  }

  @inlinable var isAtEnd: Bool { index == bytes.count }

  @inlinable
  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  @inlinable
  mutating func next() -> UInt8? {
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return bytes[index]
  }

  @inlinable
  mutating func expect(_ byte: UInt8) throws(_ExportLineScanner.Malformed) {
    guard next() == byte else { throw _ExportLineScanner.Malformed() }
  }

  @inlinable
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Whether the raw bytes `start..<end` spell `literal` (an ASCII key).
  @inlinable
  func matches(_ start: Int, _ end: Int, _ literal: StaticString) -> Bool {
    guard end - start == literal.utf8CodeUnitCount else { return false }
    let expected = literal.utf8Start
    for offset in 0..<(end - start) where bytes[start + offset] != expected[offset] { return false }
    return true
  }

  /// Whether a string token spells `literal` (an ASCII key), escaped or not.
  @inlinable
  func `is`(_ token: Token, _ literal: StaticString) -> Bool {
    switch token {
    case .raw(let start, let end): return matches(start, end, literal)
    case .decoded(let text): return text.utf8.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
  }

  /// A string, its escapes checked (and decoded when there are any).
  @inlinable
  mutating func string() throws(_ExportLineScanner.Malformed) -> Token {
    try expect(UInt8(ascii: "\""))
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return .raw(start, index - 1)
      }
      if byte == UInt8(ascii: "\\") {
        index = start
        return .decoded(try decodedString())
      }
      guard byte >= 0x20 else { throw _ExportLineScanner.Malformed() }
      index += 1
    }
    throw _ExportLineScanner.Malformed()
  }

  /// The rest of a string with escapes, from just after its opening quote.
  @inlinable
  mutating func decodedString() throws(_ExportLineScanner.Malformed) -> String {
    var utf8: [UInt8] = []
    while let byte = next() {
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: utf8, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard let escaped = next() else { throw _ExportLineScanner.Malformed() }
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hexQuad()
          if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by its low half.
            guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u") else { throw _ExportLineScanner.Malformed() }
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw _ExportLineScanner.Malformed() }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw _ExportLineScanner.Malformed() }
          utf8.append(contentsOf: String(unicode).utf8)
        default:
          throw _ExportLineScanner.Malformed()
        }
      default:
        guard byte >= 0x20 else { throw _ExportLineScanner.Malformed() }
        utf8.append(byte)
      }
    }
    throw _ExportLineScanner.Malformed()
  }

  @inlinable
  mutating func hexQuad() throws(_ExportLineScanner.Malformed) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = next() else { throw _ExportLineScanner.Malformed() }
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw _ExportLineScanner.Malformed()
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// A string value as text; nil (after skipping it) when the value is not a string.
  @inlinable
  mutating func stringValue() throws(_ExportLineScanner.Malformed) -> String? {
    guard peek() == UInt8(ascii: "\"") else {
      try skipValue(depth: 0)
      return nil
    }
    switch try string() {
    case .raw(let start, let end):
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    case .decoded(let text):
      return text
    }
  }

  /// An integer value; nil (after skipping it) when the value is another kind of JSON value or
  /// a number with a fraction, an exponent or more digits than an `Int64` holds.
  @inlinable
  mutating func integerValue() throws(_ExportLineScanner.Malformed) -> Int64? {
    let start = index
    try skipValue(depth: 0)
    var position = start
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    var value: Int64 = 0
    while position < index, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
      let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = times.addingReportingOverflow(Int64(bytes[position] - UInt8(ascii: "0")))
      if overflowA || overflowB { return nil }
      value = sum
      position += 1
    }
    guard position == index, position > start + (negative ? 1 : 0) else { return nil }
    return negative ? -value : value
  }

  /// A base64 string value decoded; nil (after skipping it) when it is not a string of
  /// standard base64 with padding.
  @inlinable
  mutating func base64Value() throws(_ExportLineScanner.Malformed) -> [UInt8]? {
    guard peek() == UInt8(ascii: "\"") else {
      try skipValue(depth: 0)
      return nil
    }
    switch try string() {
    case .raw(let start, let end):
      return _Base64.decode(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    case .decoded(let text):
      var text = text
      return text.withUTF8 { _Base64.decode($0) }
    }
  }

  /// Skips one value, checking its syntax.
  @inlinable
  mutating func skipValue(depth: Int) throws(_ExportLineScanner.Malformed) {
    guard depth < _ExportLineScanner.maximumDepth, let first = peek() else { throw _ExportLineScanner.Malformed() }
    switch first {
    case UInt8(ascii: "\""):
      _ = try string()
    case UInt8(ascii: "{"):
      index += 1
      skipWhitespace()
      if peek() == UInt8(ascii: "}") {
        index += 1
        return
      }
      while true {
        skipWhitespace()
        _ = try string()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
        try skipValue(depth: depth + 1)
        skipWhitespace()
        guard let next = next() else { throw _ExportLineScanner.Malformed() }
        if next == UInt8(ascii: "}") { return }
        guard next == UInt8(ascii: ",") else { throw _ExportLineScanner.Malformed() }
      }
    case UInt8(ascii: "["):
      index += 1
      skipWhitespace()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return
      }
      while true {
        skipWhitespace()
        try skipValue(depth: depth + 1)
        skipWhitespace()
        guard let next = next() else { throw _ExportLineScanner.Malformed() }
        if next == UInt8(ascii: "]") { return }
        guard next == UInt8(ascii: ",") else { throw _ExportLineScanner.Malformed() }
      }
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    default: try number()
    }
  }

  @inlinable
  mutating func literal(_ word: StaticString) throws(_ExportLineScanner.Malformed) {
    guard bytes.count - index >= word.utf8CodeUnitCount, matches(index, index + word.utf8CodeUnitCount, word) else {
      throw _ExportLineScanner.Malformed()
    }
    index += word.utf8CodeUnitCount
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
  @inlinable
  mutating func number() throws(_ExportLineScanner.Malformed) {
    if peek() == UInt8(ascii: "-") { index += 1 }
    guard let lead = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lead) else {
      throw _ExportLineScanner.Malformed()
    }
    index += 1
    if lead != UInt8(ascii: "0") { skipDigits() }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard skipDigits() > 0 else { throw _ExportLineScanner.Malformed() }
    }
    if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      index += 1
      if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
      guard skipDigits() > 0 else { throw _ExportLineScanner.Malformed() }
    }
  }

  @inlinable
  @discardableResult
  mutating func skipDigits() -> Int {
    let start = index
    while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    return index - start
  }
}
