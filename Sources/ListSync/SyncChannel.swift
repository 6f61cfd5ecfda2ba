/// One open connection: binary frames both ways, in order.
///
/// ```swift
/// let channel = try await transport.connect(to: endpoint.syncURL, bearer: endpoint.token)
/// try await channel.send(SyncMessage.hello(version: 1, vector: replica.versionVector, genesis: nil).encoded())
/// while let frame = try await channel.receive() { … }
/// ```
public protocol SyncChannel: Sendable {
  /// Sends one frame.
  func send(_ frame: [UInt8]) async throws
  /// The next frame; nil once the connection closed.
  func receive() async throws -> [UInt8]?
  /// Closes the connection; a pending ``receive()`` returns nil.
  func close() async
}
