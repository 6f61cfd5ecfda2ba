import Logging

/// A log handler that escapes control characters (newlines, NUL, escape sequences) and
/// backslashes in messages and metadata values before another handler writes them, so text a
/// client sent (a query, a reason, a list name) can never forge or split a log line.
///
/// ```swift
/// LoggingSystem.bootstrap { label in EscapingLogHandler(StreamLogHandler.standardError(label: label)) }
/// ```
///
/// - Complexity: O(length) of each message and metadata value.
public struct EscapingLogHandler<Base: LogHandler>: LogHandler {
  public var base: Base

  public init(_ base: Base) { self.base = base }

  public var logLevel: Logger.Level {
    get { base.logLevel }
    set { base.logLevel = newValue }
  }

  public var metadata: Logger.Metadata {
    get { base.metadata }
    set { base.metadata = newValue.mapValues(Self.escape) }
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { base[metadataKey: key] }
    set { base[metadataKey: key] = newValue.map(Self.escape) }
  }

  public func log(event: LogEvent) {
    var event = event
    event.message = "\(Self.escape(event.message.description))"
    event.metadata = event.metadata.map { $0.mapValues(Self.escape) }
    base.log(event: event)
  }

  /// `text` with `\` doubled and every control character as `\n`, `\r`, `\t` or `\u{XX}`.
  public static func escape(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" || (0x80...0x9F).contains($0.value) })
    else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value):
        escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  static func escape(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
    switch value {
    case .string(let text): .string(escape(text))
    case .stringConvertible(let convertible): .string(escape(convertible.description))
    case .array(let values): .array(values.map(escape))
    case .dictionary(let values): .dictionary(values.mapValues(escape))
    }
  }
}
