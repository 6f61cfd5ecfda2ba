/// One open connection: binary frames both ways, in order.
public protocol SyncChannel: Sendable {
  /// Sends one frame.
  func send(_ frame: [UInt8]) async throws
  /// The next frame; nil once the connection closed.
  func receive() async throws -> [UInt8]?
  /// Closes the connection; a pending ``receive()`` returns nil.
  func close() async
}
