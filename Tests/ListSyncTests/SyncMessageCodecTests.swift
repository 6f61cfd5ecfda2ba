import ListHistory
import ListReplica
import ListState
import ListSync
import TestSupport
import Testing

/// The wire codec: every message round-trips; every truncation and many byte flips of valid
/// frames give a typed error naming an offset inside the frame (or, for the batch a push or
/// commits frame carries, a damaged-batch error when it is decoded), never a crash.
@Suite struct SyncMessageCodecTests {
  static func vector(_ random: inout SeededRandom) -> ReplicaVersionVector {
    var vector = ReplicaVersionVector()
    for _ in 0..<Int(random.next() % 4) { vector[ReplicaID(rawValue: random.next())] = 1 + random.next() % 100_000 }
    return vector
  }

  static func batch(_ random: inout SeededRandom) throws -> ReplicaBatch {
    let replica = Replica(replica: ReplicaID(rawValue: random.next()), listID: random.next())
    for index in 0..<Int(random.next() % 4) {
      try replica.transaction { tx in
        if index == 0 { try tx.appendSections([TestSection("S")]) }
        try tx.appendItems([TestItem("i\(index)", content: "c\(random.next() % 9)")])
      }
    }
    return try ReplicaBatch(commits: replica.commits, listID: replica.listID, codec: SyncFixture.codec)
  }

  static func messages(_ random: inout SeededRandom) throws -> [SyncMessage] {
    let genesis = SyncListGenesis(listID: random.next(), base: (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    return [
      .hello(version: 1, vector: vector(&random), genesis: genesis),
      .hello(version: random.next() % 1000, vector: vector(&random), genesis: nil),
      .welcome(genesis: genesis, lastPosition: random.next(), vector: vector(&random)),
      .push(request: random.next() % 1_000_000, batch: try batch(&random)),
      .ack(request: random.next(), stored: random.next() % 70_000, duplicates: random.next() % 70_000),
      .commits(try batch(&random)),
      .error(request: random.next() % 100, code: SyncErrorCode(rawValue: 1 + random.next() % 9), message: "refusé \(random.next())"),
    ]
  }

  @Test func everyMessageRoundTrips() throws {
    var random = SeededRandom(seed: 11)
    for _ in 0..<50 {
      for message in try Self.messages(&random) {
        let frame = message.encoded()
        #expect(frame.first == message.typeByte)
        #expect(try SyncMessage(decoding: frame) == message)
      }
    }
  }

  /// A decode failure is a `SyncMessageError` inside the frame; a batch that came through is
  /// then refused by its own checks.
  static func checkDamaged(_ frame: [UInt8], context: String) {
    do {
      let message = try SyncMessage(decoding: frame)
      switch message {
      case .push(_, let batch), .commits(let batch):
        // The batch is the frame's tail: its checks (magic, CRC, decoding) catch the damage,
        // or the damage was outside what it covers (the list identifier) and it decodes.
        // A damaged length field may instead declare more than the limit: refused before decoding.
        do { _ = try batch.commits(codec: SyncFixture.codec) } catch {
          switch error {
          case .damagedBatch, .limitExceeded: break
          default: Issue.record("\(context): batch error \(error) is not damagedBatch or limitExceeded")
          }
        }
      default: break
      }
    } catch {
      #expect(error.offset >= 0 && error.offset <= frame.count, "\(context): offset \(error.offset) outside the frame")
    }
  }

  @Test func truncationsAreTypedErrors() throws {
    var random = SeededRandom(seed: 12)
    for round in 0..<10 {
      for message in try Self.messages(&random) {
        let frame = message.encoded()
        for length in 0..<frame.count {
          let cut = Array(frame[..<length])
          switch message {
          case .push, .commits:
            Self.checkDamaged(cut, context: "round \(round) \(message.typeName) cut at \(length)")
            if length > 0 {
              // A batch cut short never decodes.
              if let decoded = try? SyncMessage(decoding: cut) {
                switch decoded {
                case .push(_, let batch), .commits(let batch):
                  #expect(throws: ReplicaError.self) { try batch.commits(codec: SyncFixture.codec) }
                default: Issue.record("a cut \(message.typeName) decoded as \(decoded.typeName)")
                }
              }
            }
          default:
            #expect(throws: SyncMessageError.self, "\(message.typeName) cut at \(length)") { try SyncMessage(decoding: cut) }
          }
        }
      }
    }
  }

  @Test func byteFlipsNeverCrash() throws {
    var random = SeededRandom(seed: 13)
    for round in 0..<40 {
      for message in try Self.messages(&random) {
        var frame = message.encoded()
        for _ in 0..<(1 + Int(random.next() % 3)) {
          let at = Int(random.next() % UInt64(frame.count))
          frame[at] ^= UInt8(1 + random.next() % 255)
        }
        Self.checkDamaged(frame, context: "round \(round) \(message.typeName)")
      }
    }
  }

  @Test func errorsNameTheOffset() {
    #expect(throws: SyncMessageError.malformed(offset: 0, reason: "unknown message type 9")) { try SyncMessage(decoding: [9]) }
    #expect(throws: SyncMessageError.malformed(offset: 0, reason: "message type: the frame ends")) { try SyncMessage(decoding: []) }
    // ack, request 1, stored 2, duplicates 3, then a stray byte.
    #expect(throws: SyncMessageError.malformed(offset: 4, reason: "1 bytes after the message")) {
      try SyncMessage(decoding: [4, 1, 2, 3, 0])
    }
    // A varint running past 64 bits.
    #expect(throws: SyncMessageError.self) { try SyncMessage(decoding: [4] + [UInt8](repeating: 0xFF, count: 11)) }
    // hello with a vector whose replicas are not ascending.
    var frame: [UInt8] = [1, 1, 2]
    frame += [2, 0, 0, 0, 0, 0, 0, 0, 1]
    frame += [1, 0, 0, 0, 0, 0, 0, 0, 1]
    frame += [0]
    #expect(throws: SyncMessageError.malformed(offset: 12, reason: "vector replicas are not in ascending order")) {
      try SyncMessage(decoding: frame)
    }
  }
}
