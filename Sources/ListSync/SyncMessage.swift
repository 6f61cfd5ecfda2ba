import ListHistory
import ListReplica

/// One frame of the sync protocol between a client and a server (a WebSocket binary message).
///
/// A client says `hello` with what it holds; the server answers `welcome` and sends the commits
/// the client lacks as `commits`, then everyone else's commits as they are stored. The client
/// pushes its own commits with `push`, each answered by an `ack` once they are durable, or by an
/// `error`. `Documentation/SYNC.md` gives the byte layout.
///
/// ```swift
/// let frame = SyncMessage.push(request: 7, batch: batch).encoded()
/// let message = try SyncMessage(decoding: frame)    // == .push(request: 7, batch: batch)
/// ```
public enum SyncMessage: Sendable, Hashable {
  /// The protocol version this library speaks.
  public static let protocolVersion: UInt64 = 1

  /// Client → server, first: the protocol version, what the client holds, and the list's
  /// genesis when the client has one (so a server that does not host the list yet creates it).
  case hello(version: UInt64, vector: ReplicaVersionVector, genesis: SyncListGenesis?)
  /// Server → client, the answer to `hello`: the list's genesis, its last stored position, and
  /// what the server holds (so the client pushes only what the server lacks).
  case welcome(genesis: SyncListGenesis, lastPosition: UInt64, vector: ReplicaVersionVector)
  /// Client → server: commits to store, under a request identifier the `ack` repeats.
  case push(request: UInt64, batch: ReplicaBatch)
  /// Server → client: the push `request` is durable; `stored` commits were new, `duplicates` held.
  case ack(request: UInt64, stored: UInt64, duplicates: UInt64)
  /// Server → client: commits others pushed (as they are stored), or catch-up after `welcome`.
  case commits(ReplicaBatch)
  /// Server → client: a refusal of push `request` (0: of the connection).
  case error(request: UInt64, code: SyncErrorCode, message: String)

  /// The type byte that starts the frame.
  public var typeByte: UInt8 {
    switch self {
    case .hello: 0x01
    case .welcome: 0x02
    case .push: 0x03
    case .ack: 0x04
    case .commits: 0x05
    case .error: 0x06
    }
  }
}

extension SyncMessage {
  /// The message type's name in the protocol document.
  public var typeName: String {
    switch self {
    case .hello: "hello"
    case .welcome: "welcome"
    case .push: "push"
    case .ack: "ack"
    case .commits: "commits"
    case .error: "error"
    }
  }
}
