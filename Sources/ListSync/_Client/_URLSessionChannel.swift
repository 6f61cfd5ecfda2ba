#if canImport(FoundationNetworking) || canImport(Darwin)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A WebSocket connection through `URLSessionWebSocketTask`.
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
    // FoundationNetworking reports a libcurl without WebSockets as an unsupported URL.
    if (error as NSError).domain == NSURLErrorDomain, (error as NSError).code == NSURLErrorUnsupportedURL {
      return SyncTransportError.unsupported((error as NSError).localizedDescription)
    }
    return SyncTransportError.failed("\(error)")
  }
}
#endif
