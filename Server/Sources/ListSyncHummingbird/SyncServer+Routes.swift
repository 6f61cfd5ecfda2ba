import Foundation
import Hummingbird
import ListSync
import Logging

extension SyncServer {
  /// `GET /health` and the JSON read endpoints; each read needs a token with read access to the list.
  func addRoutes(to router: Router<SyncRequestContext>) {
    router.get("/health") { [self] _, _ in
      try await health()
    }
    if let metrics = configuration.metrics {
      // No token: it names no list, and an operator's scraper holds none.
      router.get("/metrics") { _, _ in
        Response(
          status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
          body: .init(byteBuffer: ByteBuffer(string: metrics())))
      }
    }
    router.get("/v1/lists") { [self] request, context in
      let token = bearerToken(request)
      let names: [String]
      do throws(SyncHubError) {
        names = try await hub.lists(visibleTo: token)
      } catch .unauthenticated {
        throw refuse(unauthorized(token), list: nil, peer: context.peer)
      } catch {
        throw refuse(httpError(error), list: nil, peer: context.peer)
      }
      return jsonResponse(.ok, ["lists": names])
    }
    router.get("/v1/lists/:list") { [self] request, context in
      let list = try listName(context)
      _ = try await authorizeRead(request: request, list: list, peer: context.peer)
      let version = try intParameter(request, "version", list: list, peer: context.peer)
      return try await response(list: list, peer: context.peer) { () async throws(SyncHubError) in
        try await hub.readState(list: list, version: version)
      }
    }
    router.get("/v1/lists/:list/log") { [self] request, context in
      let list = try listName(context)
      _ = try await authorizeRead(request: request, list: list, peer: context.peer)
      let after = try intParameter(request, "after", list: list, peer: context.peer)
      let limit = try intParameter(request, "limit", list: list, peer: context.peer)
      return try await response(list: list, peer: context.peer) { () async throws(SyncHubError) in
        try await hub.readLog(list: list, after: after, limit: limit)
      }
    }
    router.get("/v1/lists/:list/diff") { [self] request, context in
      let list = try listName(context)
      _ = try await authorizeRead(request: request, list: list, peer: context.peer)
      guard let from = try intParameter(request, "from", list: list, peer: context.peer) else {
        throw refuse(
          SyncServerError(.badRequest, code: "bad-request", "diff needs ?from=N (and optionally &to=M)"), list: list,
          peer: context.peer)
      }
      let to = try intParameter(request, "to", list: list, peer: context.peer)
      return try await response(list: list, peer: context.peer) { () async throws(SyncHubError) in
        try await hub.readDiff(list: list, from: from, to: to)
      }
    }
  }

  /// `{"status": "ok", "lists": N, "sessions": N, "storage": "ok"}`; 503 when the storage fails.
  func health() async throws -> Response {
    let draining = connections.isDraining
    do {
      let lists = try await hub.storage.lists()
      return jsonResponse(
        draining ? .serviceUnavailable : .ok,
        [
          "status": draining ? "shutting-down" : "ok", "lists": lists.count, "sessions": connections.count,
          "storage": "ok",
        ] as [String: Any])
    } catch {
      logger.error("health: storage failed", metadata: ["reason": "\(error)"])
      return jsonResponse(
        .serviceUnavailable,
        ["status": "unavailable", "sessions": connections.count, "storage": "\(error)"] as [String: Any])
    }
  }

  // MARK: Access

  /// The bearer token of `Authorization: Bearer <token>`, or `nil`.
  func bearerToken(_ request: Request) -> String? {
    guard let header = request.headers[.authorization] else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    let token = parts[1].trimmingCharacters(in: .whitespaces)
    return token.isEmpty ? nil : token
  }

  /// The validated `{list}` path parameter; 400 for a name outside `[A-Za-z0-9._-]{1,128}`.
  func listName(_ context: SyncRequestContext) throws -> String {
    let list = context.parameters.get("list") ?? ""
    guard SyncHub.isValidListName(list) else {
      throw refuse(
        SyncServerError(
          .badRequest, code: "bad-list-name", "'\(list.prefix(140))' is not a list name ([A-Za-z0-9._-], 1 to 128 characters)"),
        list: nil, peer: context.peer)
    }
    return list
  }

  /// The access a sync connection gets: 401 without a known token, 403 for a token of other
  /// lists, 404 when a read-only token asks for a list the server does not host.
  func authorizeSync(request: Request, list: String, peer: String) async throws -> SyncAccess {
    let token = bearerToken(request)
    let access = try authorize(token: token, list: list, peer: peer)
    if access == .read {
      let genesis: SyncListGenesis?
      do {
        genesis = try await hub.storage.genesis(of: list)
      } catch {
        throw refuse(httpError(.storage(error)), list: list, peer: peer)
      }
      guard genesis != nil else { throw refuse(notFound(list), list: list, peer: peer) }
    }
    return access
  }

  /// Read access for the JSON endpoints: 401, 403 as for sync; 404 comes from the hub.
  func authorizeRead(request: Request, list: String, peer: String) async throws -> SyncAccess {
    try authorize(token: bearerToken(request), list: list, peer: peer)
  }

  private func authorize(token: String?, list: String, peer: String) throws -> SyncAccess {
    switch hub.authorize(token: token, list: list) {
    case .read: return .read
    case .write: return .write
    case .unauthenticated: throw refuse(unauthorized(token), list: list, peer: peer)
    case .forbidden:
      throw refuse(SyncServerError(.forbidden, code: "forbidden", "the token does not give access to list '\(list)'"), list: list, peer: peer)
    }
  }

  private func unauthorized(_ token: String?) -> SyncServerError {
    SyncServerError(
      .unauthorized, code: "unauthorized",
      token == nil ? "an Authorization: Bearer <token> header is required" : "the token is not known to this server")
  }

  private func notFound(_ list: String) -> SyncServerError {
    SyncServerError(.notFound, code: "not-found", "no list named '\(list)'")
  }

  /// Logs a refused request (list, peer, reason), counts it, and returns it to throw.
  func refuse(_ error: SyncServerError, list: String?, peer: String) -> SyncServerError {
    var metadata: Logger.Metadata = ["peer": "\(peer)", "reason": "\(error.message)", "status": "\(error.status.code)"]
    if let list { metadata["list"] = "\(list)" }
    logger.notice("request refused", metadata: metadata)
    observer.refused(list: list, reason: error.code)
    return error
  }

  // MARK: Responses

  private func intParameter(_ request: Request, _ name: String, list: String, peer: String) throws -> Int? {
    guard let text = request.uri.queryParameters.get(name) else { return nil }
    guard let value = Int(text), value >= 0 else {
      throw refuse(
        SyncServerError(.badRequest, code: "bad-request", "?\(name)=\(text.prefix(40)) is not a number (0 or more)"),
        list: list, peer: peer)
    }
    return value
  }

  private func response(
    list: String, peer: String, _ read: () async throws(SyncHubError) -> SyncReadResponse
  ) async throws -> Response {
    let result: SyncReadResponse
    do {
      result = try await read()
    } catch {
      throw refuse(httpError(error), list: list, peer: peer)
    }
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(
      status: .init(code: result.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: result.body)))
  }

  func httpError(_ error: SyncHubError) -> SyncServerError {
    if case .storage = error { logger.error("storage failed", metadata: ["reason": "\(error)"]) }
    return SyncServerError(.init(code: error.httpStatus), code: error.code, error.description)
  }

  func jsonResponse(_ status: HTTPResponse.Status, _ object: Any) -> Response {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
  }
}
