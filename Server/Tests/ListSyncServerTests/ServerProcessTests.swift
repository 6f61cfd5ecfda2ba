import Foundation
import ListHistory
import ListReplica
import ListSync
import SyncWorkload
import Testing

/// The `listjournal-server` executable as an operator runs it: killed with SIGKILL mid-stream it
/// loses no acknowledged commit and clients resume and converge; SIGTERM shuts it down
/// gracefully with exit code 0.
@Suite("The server process: SIGKILL and SIGTERM", .serialized, .timeLimit(.minutes(5)))
struct ServerProcessTests {
  static let tokens = #"{"tokens": [{"token": "writer", "lists": "*", "access": "write"}]}"#

  static func folder() throws -> (data: URL, tokens: URL, root: URL) {
    let root = try TestServer.temporaryDirectory()
    let tokens = root.appendingPathComponent("tokens.json")
    try Self.tokens.write(to: tokens, atomically: true, encoding: .utf8)
    return (root.appendingPathComponent("data"), tokens, root)
  }

  /// Pushes one commit at a time from its own replica over a raw connection and remembers which
  /// were acknowledged, until the connection fails.
  final class AckRecorder: @unchecked Sendable {
    let replica = ListReplica<String, SyncRow>(replica: ReplicaID(rawValue: 0xACC), listID: 0xF00D, base: SyncWorkload.base(items: 6))
    private let lock = NSLock()
    private var acked: [ReplicaCommitID] = []

    var acknowledged: [ReplicaCommitID] { lock.withLock { acked } }

    func run(port: Int, genesis: SyncListGenesis?) async {
      var workload = SyncWorkload(seed: 5, client: 0xACC)
      do {
        let raw = try await RawSession(
          channel: WebSocketTransportForTests.connect(port: port, list: "groceries", token: "writer"))
        try await raw.send(.hello(version: SyncMessage.protocolVersion, vector: replica.versionVector, genesis: genesis))
        var request: UInt64 = 0
        while !Task.isCancelled {
          let before = replica.versionVector
          try workload.edit(replica)
          let batch = try replica.batch(since: before, codec: TestClient.codec)
          request += 1
          try await raw.send(.push(request: request, batch: batch))
          guard case .ack(let echoed, _, _) = try await raw.reply(), echoed == request else { return }
          let id = ReplicaCommitID(replica: replica.replicaID, sequence: replica.versionVector[replica.replicaID])
          lock.withLock { acked.append(id) }
        }
      } catch {
        return
      }
    }
  }

  @Test func sigkillMidStreamLosesNoAcknowledgedCommitAndClientsResume() async throws {
    let (data, tokens, root) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = try ServerProcess.start(data: data, arguments: ["--tokens", tokens.path])
    let port = first.port
    let url = "ws://127.0.0.1:\(port)"
    let recorder = AckRecorder()
    // The recorder's replica creates the list; app clients join it.
    let genesisClient = TestClient(
      .init(
        replica: ListReplica(cloning: recorder.replica, replica: ReplicaID(rawValue: 1)), codec: TestClient.codec,
        transport: WebSocketTransportForTests.transport, endpoint: SyncEndpoint(url: url, list: "groceries", token: "writer"),
        configuration: TestClient.clientConfiguration),
      name: "client 0", seed: 11, index: 0)
    genesisClient.goOnline()
    try await genesisClient.edit(2)
    try await genesisClient.sync()
    var clients = [genesisClient]
    for index in 1..<4 {
      let client = try await TestClient.joining(list: "groceries", url: url, token: "writer", seed: 11, index: index)
      client.goOnline()
      clients.append(client)
    }
    let recording = Task { await recorder.run(port: port, genesis: nil) }
    // Clients edit while the recorder streams pushes; the server is killed in the middle.
    let editors = clients
    let editing = Task {
      for round in 0..<400 {
        if Task.isCancelled { break }
        try await editors[round % editors.count].edit(1)
        try await Task.sleep(for: .milliseconds(2))
      }
    }
    while recorder.acknowledged.count < 40 { try await Task.sleep(for: .milliseconds(5)) }
    first.kill9()
    let acknowledged = recorder.acknowledged
    recording.cancel()
    await recording.value
    try await Task.sleep(for: .milliseconds(200))
    let second = try ServerProcess.start(data: data, port: port, arguments: ["--tokens", tokens.path])
    defer { _ = second.terminate() }
    editing.cancel()
    _ = try? await editing.value
    // Every acknowledged commit survived the kill.
    let late = try await TestClient.joining(list: "groceries", url: url, token: "writer", seed: 11, index: 50)
    let vector = late.client.replica.versionVector
    for id in acknowledged {
      #expect(vector.contains(id), "acknowledged commit \(id) was lost")
    }
    #expect(acknowledged.count >= 40)
    // The clients reconnect on their own, push what was not stored, and converge.
    for client in clients { try await client.sync() }
    for client in clients { try await client.sync() }
    for client in clients.dropFirst() {
      #expect(client.snapshot == clients[0].snapshot, "\(client.name) differs after the restart")
    }
    #expect(clients.allSatisfy { $0.client.status.connections >= 2 }, "every client reconnected")
    let total = Set(clients.flatMap { $0.client.replica.versionVector.entries.map(\.replica) })
    #expect(total.contains(ReplicaID(rawValue: 0xACC)))
    for client in clients { await client.goOffline() }
    #expect(second.terminate() == 0, "log:\n\(second.log)")
  }

  @Test func sigtermDrainsClosesAndExitsZero() async throws {
    let (data, tokens, root) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let server = try ServerProcess.start(data: data, arguments: ["--tokens", tokens.path])
    let url = "ws://127.0.0.1:\(server.port)"
    let writer = TestClient.creating(
      list: "groceries", url: url, token: "writer", listID: 0xAB, base: SyncWorkload.base(items: 5), seed: 21, index: 0)
    writer.goOnline()
    try await writer.edit(25)
    try await writer.sync()
    // A connection open at shutdown is closed by the server (1001), not left hanging.
    let raw = try await RawSession(
      channel: WebSocketTransportForTests.connect(port: server.port, list: "groceries", token: "writer"))
    _ = try await raw.hello()
    // A push in flight at SIGTERM: if acknowledged, it is durable.
    let extra = ListReplica(cloning: writer.client.replica, replica: ReplicaID(rawValue: 0xE))
    var workload = SyncWorkload(seed: 2, client: 0xE)
    try workload.edit(extra)
    let batch = try extra.batch(since: writer.client.replica.versionVector, codec: TestClient.codec)
    try await raw.send(.push(request: 1, batch: batch))
    let status = server.terminate()
    #expect(status == 0, "log:\n\(server.log)")
    var acknowledged = false
    while let message = try? await raw.receive() {
      if case .ack(1, _, _) = message { acknowledged = true }
    }
    await writer.goOffline()
    let again = try ServerProcess.start(data: data, arguments: ["--tokens", tokens.path])
    let reader = try await TestClient.joining(
      list: "groceries", url: "ws://127.0.0.1:\(again.port)", token: "writer", seed: 21, index: 7)
    let vector = reader.client.replica.versionVector
    #expect(writer.client.replica.versionVector.isCovered(by: vector), "acknowledged commits were lost")
    if acknowledged {
      #expect(vector[ReplicaID(rawValue: 0xE)] == 1, "an acknowledged push was lost")
    }
    #expect(again.terminate() == 0)
  }

  @Test func anonymousServingOffLoopbackIsRefusedBeforeListening() throws {
    let (data, _, root) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let binary = try #require(ServerProcess.binary, "listjournal-server was not built; run Server/Tools/test")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["serve", "--host", "0.0.0.0", "--port", "0", "--data", data.path]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 64, "a usage error, not a server: \(message)")
    #expect(message.contains("--host 0.0.0.0 without --tokens"), "\(message)")
    #expect(message.contains("--allow-anonymous"), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: data.path), "nothing was created")
  }
}
