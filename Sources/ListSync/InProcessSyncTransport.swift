/// A transport to a ``SyncHub`` in the same process: the same sessions, checks and frames as
/// over a socket, without one. For tests, examples and an app that hosts lists itself.
///
/// ```swift
/// let hub = SyncHub(storage: try SyncFileStorage(directory: folder))
/// let transport = InProcessSyncTransport(hub: hub)
/// let client = SyncClient(replica: phone, codec: codec, transport: transport,
///                         endpoint: SyncEndpoint(url: "local:", list: "groceries", token: nil))
/// ```
public struct InProcessSyncTransport: SyncTransport {
  public let hub: SyncHub

  public init(hub: SyncHub) { self.hub = hub }

  public func connect(to url: String, bearer token: String?) async throws -> any SyncChannel {
    guard let list = SyncEndpoint.list(inSyncURL: url) else { throw SyncTransportError.invalidURL(url) }
    let authorization = hub.authorize(token: token, list: list)
    guard let access = authorization.access else {
      throw SyncTransportError.refused(
        status: authorization.httpStatus,
        message: authorization == .unauthenticated ? "a bearer token is required" : "the token does not cover '\(list)'")
    }
    let inbox = _OutgoingQueue(limit: Int.max)
    let session: SyncSession
    do {
      session = try await hub.openSession(
        list: list, access: access, send: { frame in _ = inbox.enqueue(frame) }, close: { _, _ in inbox.end() })
    } catch {
      throw SyncTransportError.refused(status: error.httpStatus, message: error.description)
    }
    return _InProcessChannel(session: session, inbox: inbox)
  }
}
