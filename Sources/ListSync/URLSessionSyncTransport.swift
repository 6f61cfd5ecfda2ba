#if canImport(FoundationNetworking) || canImport(Darwin)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport over `URLSessionWebSocketTask`: what an app on Apple platforms uses (and Linux,
/// where FoundationNetworking provides it).
///
/// ```swift
/// let client = SyncClient(replica: replica, codec: codec, transport: URLSessionSyncTransport(),
///                         endpoint: SyncEndpoint(url: "wss://lists.example.com", list: "groceries", token: token))
/// ```
public struct URLSessionSyncTransport: SyncTransport {
  let session: URLSession
  /// The largest frame accepted from the server (URLSession's default is 1 MiB).
  public var maximumMessageSize: Int

  public init(session: URLSession = .shared, maximumMessageSize: Int = 16 << 20) {
    self.session = session
    self.maximumMessageSize = maximumMessageSize
  }

  public func connect(to url: String, bearer token: String?) async throws -> any SyncChannel {
    guard let address = URL(string: url) else { throw SyncTransportError.invalidURL(url) }
    var request = URLRequest(url: address)
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let task = session.webSocketTask(with: request)
    task.maximumMessageSize = maximumMessageSize
    task.resume()
    return _URLSessionChannel(task: task)
  }
}

final class _URLSessionChannel: SyncChannel, @unchecked Sendable {
  // URLSessionWebSocketTask is thread-safe; it is not marked Sendable on every platform.
  let task: URLSessionWebSocketTask

  init(task: URLSessionWebSocketTask) { self.task = task }

  func send(_ frame: [UInt8]) async throws {
    do { try await task.send(.data(Data(frame))) } catch { throw mapped(error) }
  }

  func receive() async throws -> [UInt8]? {
    do {
      switch try await task.receive() {
      case .data(let data): return Array(data)
      case .string(let text): return Array(text.utf8)
      @unknown default: return nil
      }
    } catch {
      if task.closeCode != .invalid { return nil }
      throw mapped(error)
    }
  }

  func close() async { task.cancel(with: .normalClosure, reason: nil) }

  private func mapped(_ error: any Error) -> any Error {
    if let response = task.response as? HTTPURLResponse, response.statusCode >= 400 {
      return SyncTransportError.refused(status: response.statusCode, message: HTTPURLResponse.localizedString(forStatusCode: response.statusCode))
    }
    return SyncTransportError.failed("\(error)")
  }
}
#endif
