import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plain HTTP GETs against a server on loopback, as `curl` would send them.
enum HTTPProbe {
  struct Reply {
    var status: Int
    var body: Data
    /// The body as a JSON object (empty when it is not one).
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  static func get(_ url: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
    var request = URLRequest(url: URL(string: url)!)
    request.timeoutInterval = 30
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    return Reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
  }
}
