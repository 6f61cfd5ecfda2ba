import ListHistory
import ListReplica

extension SyncMessage {
  /// The frame's bytes.
  ///
  /// - Complexity: O(size of the message).
  public func encoded() -> [UInt8] {
    var writer = _WireWriter()
    writer.byte(typeByte)
    switch self {
    case .hello(let version, let vector, let genesis):
      writer.varint(version)
      Self.write(vector, into: &writer)
      if let genesis {
        writer.byte(1)
        writer.word(genesis.listID)
        writer.lengthPrefixed(genesis.base)
      } else {
        writer.byte(0)
      }
    case .welcome(let genesis, let lastPosition, let vector):
      writer.word(genesis.listID)
      writer.lengthPrefixed(genesis.base)
      writer.varint(lastPosition)
      Self.write(vector, into: &writer)
    case .push(let request, let batch):
      writer.varint(request)
      writer.raw(batch.bytes)
    case .ack(let request, let stored, let duplicates):
      writer.varint(request)
      writer.varint(stored)
      writer.varint(duplicates)
    case .commits(let batch):
      writer.raw(batch.bytes)
    case .error(let request, let code, let message):
      writer.varint(request)
      writer.varint(code.rawValue)
      writer.lengthPrefixed(Array(message.utf8))
    }
    return writer.bytes
  }

  /// Decodes one frame.
  ///
  /// - Throws: ``SyncMessageError/malformed(offset:reason:)`` naming the byte offset of the
  ///   first problem: an unknown type, a field cut short, a count or length beyond the frame,
  ///   bytes after the last field. A push's or commits' batch is checked when it is decoded
  ///   (`ReplicaBatch.commits(codec:)`), not here.
  /// - Complexity: O(frame size).
  public init(decoding frame: [UInt8]) throws(SyncMessageError) {
    var reader = _WireReader(frame)
    let type = try reader.byte("message type")
    switch type {
    case 0x01:
      let version = try reader.varint("protocol version")
      let vector = try Self.readVector(&reader)
      let flagOffset = reader.offset
      let genesis: SyncListGenesis?
      switch try reader.byte("genesis flag") {
      case 0: genesis = nil
      case 1: genesis = SyncListGenesis(listID: try reader.word("list identifier"), base: try reader.lengthPrefixed("base"))
      case let other: throw reader.fail("genesis flag \(other) is neither 0 nor 1", at: flagOffset)
      }
      self = .hello(version: version, vector: vector, genesis: genesis)
    case 0x02:
      let listID = try reader.word("list identifier")
      let base = try reader.lengthPrefixed("base")
      let lastPosition = try reader.varint("last position")
      let vector = try Self.readVector(&reader)
      self = .welcome(genesis: SyncListGenesis(listID: listID, base: base), lastPosition: lastPosition, vector: vector)
    case 0x03:
      let request = try reader.varint("request identifier")
      self = .push(request: request, batch: ReplicaBatch(bytes: reader.rest()))
    case 0x04:
      self = .ack(
        request: try reader.varint("request identifier"), stored: try reader.varint("stored count"),
        duplicates: try reader.varint("duplicate count"))
    case 0x05:
      self = .commits(ReplicaBatch(bytes: reader.rest()))
    case 0x06:
      let request = try reader.varint("request identifier")
      let code = SyncErrorCode(rawValue: try reader.varint("error code"))
      let start = reader.offset
      let text = try reader.lengthPrefixed("error message")
      guard let message = String(validating: text, as: UTF8.self) else {
        throw reader.fail("error message is not UTF-8", at: start)
      }
      self = .error(request: request, code: code, message: message)
    default:
      throw reader.fail("unknown message type \(type)", at: 0)
    }
    guard reader.isAtEnd else { throw reader.fail("\(reader.remaining) bytes after the message") }
  }

  static func write(_ vector: ReplicaVersionVector, into writer: inout _WireWriter) {
    let entries = vector.entries
    writer.varint(UInt64(entries.count))
    for entry in entries {
      writer.word(entry.replica.rawValue)
      writer.varint(entry.sequence)
    }
  }

  static func readVector(_ reader: inout _WireReader) throws(SyncMessageError) -> ReplicaVersionVector {
    let count = try reader.count("version vector", minimumBytesEach: 9)
    var vector = ReplicaVersionVector()
    var previous: ReplicaID?
    for _ in 0..<count {
      let start = reader.offset
      let replica = ReplicaID(rawValue: try reader.word("vector replica"))
      // Ascending and distinct, so one vector has one encoding.
      if let previous, !(previous < replica) {
        throw reader.fail("vector replicas are not in ascending order", at: start)
      }
      previous = replica
      let sequenceStart = reader.offset
      let sequence = try reader.varint("vector sequence")
      guard sequence > 0 else { throw reader.fail("vector sequence 0", at: sequenceStart) }
      vector[replica] = sequence
    }
    return vector
  }
}
