import Foundation
import Hummingbird

/// A refused HTTP request of the sync server, answered as JSON `{"error": "...", "code": "..."}`.
///
/// ```swift
/// throw SyncServerError(.forbidden, code: "forbidden", "the token does not cover list 'groceries'")
/// ```
///
/// - Complexity: O(message length) to render.
public struct SyncServerError: HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
  public var status: HTTPResponse.Status
  /// A stable, machine-readable name (`unauthorized`, `forbidden`, `not-found`, `bad-request`, …).
  public var code: String
  public var message: String

  public init(_ status: HTTPResponse.Status, code: String, _ message: String) {
    self.status = status
    self.code = code
    self.message = message
  }

  public var description: String { "\(status.code) \(code): \(message)" }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    let object = ["error": message, "code": code]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }
}
