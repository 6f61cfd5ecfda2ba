import Foundation

/// Why a token file was refused: the file, the field (`tokens[2].access`), the line when the
/// JSON parser names one, and the reason.
///
/// ```swift
/// do { _ = try SyncAccessPolicy.load(from: "tokens.json") } catch {
///   print(error)   // tokens.json: tokens[2].access: Cannot initialize SyncAccess from invalid String value admin
/// }
/// ```
public struct SyncAccessPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
  public var source: String
  public var field: String?
  public var line: Int?
  public var reason: String

  public init(source: String, field: String?, line: Int?, reason: String) {
    self.source = source
    self.field = field
    self.line = line
    self.reason = reason
  }

  init(decoding error: DecodingError, source: String, json: [UInt8]) {
    func path(_ keys: [any CodingKey]) -> String? {
      guard !keys.isEmpty else { return nil }
      var text = ""
      for key in keys {
        if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
      }
      return text
    }
    switch error {
    case .keyNotFound(let key, let context):
      let parent = path(context.codingPath)
      self.init(source: source, field: parent.map { "\($0).\(key.stringValue)" } ?? key.stringValue, line: nil, reason: "missing")
    case .typeMismatch(let type, let context):
      self.init(source: source, field: path(context.codingPath), line: nil, reason: "expected \(type): \(context.debugDescription)")
    case .valueNotFound(_, let context), .dataCorrupted(let context):
      var reason = context.debugDescription
      if let underlying = context.underlyingError { reason += " (\(underlying))" }
      self.init(source: source, field: path(context.codingPath), line: nil, reason: reason)
    @unknown default:
      self.init(source: source, field: nil, line: nil, reason: "\(error)")
    }
  }

  public var description: String {
    var text = source
    if let line { text += ":\(line)" }
    if let field { text += ": \(field)" }
    return text + ": " + reason
  }
}
