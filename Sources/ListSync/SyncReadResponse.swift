/// An HTTP response of the server's read endpoints, ready to send: status and JSON body.
///
/// ```swift
/// let response = try await hub.readLog(list: "groceries", after: nil, limit: 20)
/// respond(status: response.status, contentType: response.contentType, body: response.body)
/// ```
public struct SyncReadResponse: Sendable, Hashable {
  /// The HTTP status (200, or 400/401/403/404 for errors).
  public var status: Int
  /// The UTF-8 JSON body.
  public var body: [UInt8]
  /// Always `application/json`.
  public var contentType: String { "application/json" }

  public init(status: Int, body: [UInt8]) {
    self.status = status
    self.body = body
  }

  /// The body as text.
  public var text: String { String(decoding: body, as: UTF8.self) }
}
