import ArgumentParser
import Foundation
import ListHistory
import ListReplica
import ListSync
import ListSyncWebSocketClient
import Synchronization
import SyncWorkload

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SyncBench {
  /// The server's memory over many sessions on one list, some of which never read: writers push
  /// large commits at a steady rate, readers take everything, non-readers upgrade, say hello and
  /// read nothing (the server must drop them at the queued-bytes bound instead of growing).
  /// Samples the server's RSS and peak RSS (VmHWM) from /proc.
  func runMemory() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sync-memory-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let storage = try storageArguments(data: directory)
    let codec = HistoryCodec<String, SyncRow>()
    let list = "memory-\(getpid())"
    let readers = clients - writers - nonReaders
    guard writers >= 1, readers >= 0 else { throw BenchFailure("--clients must cover --writers and --non-readers") }
    let pushRate = rate > 0 ? rate : 2
    let perWriter = max(1, Int(pushRate * duration))

    // Before the clock: every writer's commits, one item of --commit-bytes random text each.
    let origin = ListReplica<String, SyncRow>(
      replica: ReplicaID(rawValue: UInt64(writers) + 1), listID: 0x3E3, base: SyncWorkload.base(items: baseItems))
    let genesis = try SyncListGenesis(of: origin, codec: codec)
    let commitBytes = self.commitBytes
    let prepareStart = ContinuousClock.now
    var plans: [[[UInt8]]] = []
    for writer in 0..<writers {
      let replica = ListReplica(cloning: origin, replica: ReplicaID(rawValue: UInt64(writer) + 1))
      var generator = SyncWorkloadRandom(seed: 0x3E3 &+ UInt64(writer))
      var frames: [[UInt8]] = []
      for sequence in 0..<perWriter {
        let before = replica.versionVector
        let value = Self.randomText(commitBytes, using: &generator)
        try replica.transaction { tx in
          try tx.appendItems([SyncRow(id: "w\(writer)-\(sequence)", value: value)], toSection: SyncWorkload.sections[0])
        }
        let batch = try replica.batch(since: before, codec: codec)
        frames.append(SyncMessage.push(request: UInt64(sequence + 1), batch: batch).encoded())
      }
      plans.append(frames)
    }
    let frameBytes = plans.joined().reduce(0) { $0 + $1.count } / max(1, writers * perWriter)
    print(
      String(
        format: "prepared %d commits (%d writers x %d) of a %d-byte item each, %d bytes per push frame, in %.1f s",
        writers * perWriter, writers, perWriter, commitBytes, frameBytes, (ContinuousClock.now - prepareStart).seconds))

    var arguments = storage.arguments
    if let maxQueuedBytes { arguments += ["--max-queued-bytes", "\(maxQueuedBytes)"] }
    let server = try BenchServer(binary: self.server, arguments: arguments)
    let transport = WebSocketSyncTransport()
    let url = SyncEndpoint(url: "ws://127.0.0.1:\(server.port)", list: list, token: nil).syncURL
    let hello = SyncMessage.hello(version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(), genesis: genesis).encoded()
    let counters = MemoryCounters()

    // Writers first (the first creates the list), then readers, then the non-readers.
    var channels: [any SyncChannel] = []
    for _ in 0..<(writers + readers) {
      let channel = try await transport.connect(to: url, bearer: nil)
      try await channel.send(hello)
      channels.append(channel)
    }
    var stalled: [Int32] = []
    for _ in 0..<nonReaders { stalled.append(try Self.nonReadingSocket(port: server.port, list: list)) }
    let baseline = Self.memory(of: server.process.processIdentifier)
    print(
      "\(clients) sessions on one list: \(writers) writers at \(pushRate) pushes/s each, \(readers) readers, \(nonReaders) that never read; listjournal-server on port \(server.port) (\(storage.description) backend\(maxQueuedBytes.map { ", --max-queued-bytes \($0)" } ?? ", default --max-queued-bytes")); RSS before the pushes \(baseline.rss >> 20) MiB"
    )

    let start = ContinuousClock.now
    let sessionsOpen = channels
    let pushes = plans
    let receivers = sessionsOpen.enumerated().map { index, channel in
      Task {
        do {
          while let frame = try await channel.receive() {
            switch frame.first {
            case 0x04: counters.acks.add(1, ordering: .relaxed)
            case 0x05: counters.received.add(frame.count, ordering: .relaxed)
            case 0x06:
              let message = (try? SyncMessage(decoding: frame)).map { "\($0)" } ?? "an error frame"
              counters.failures.withLock { $0.append("session \(index): \(message)") }
            default: break
            }
          }
        } catch {}
      }
    }
    let senders = (0..<writers).map { writer in
      Task {
        let interval = 1 / pushRate
        for (index, frame) in pushes[writer].enumerated() {
          let due = start + .nanoseconds(Int64(Double(index) * interval * 1e9))
          try await Task.sleep(until: due, clock: .continuous)
          try await sessionsOpen[writer].send(frame)
        }
      }
    }
    var peakRSS = 0
    var lowestSessions = Int.max
    var lastReport = ContinuousClock.now
    let end = start + .seconds(duration) + .seconds(settle)
    while ContinuousClock.now < end {
      try await Task.sleep(for: .milliseconds(250))
      let sample = Self.memory(of: server.process.processIdentifier)
      peakRSS = max(peakRSS, sample.rss)
      let sessions = try await Self.sessions(port: server.port)
      lowestSessions = min(lowestSessions, sessions)
      if ContinuousClock.now - lastReport >= .seconds(5) {
        lastReport = ContinuousClock.now
        print(
          String(
            format: "t=%4.0f s  RSS %5d MiB  peak %5d MiB  sessions %3d  acks %6d  delivered %7.1f MiB",
            (ContinuousClock.now - start).seconds, sample.rss >> 20, sample.hwm >> 20, sessions,
            counters.acks.load(ordering: .relaxed), Double(counters.received.load(ordering: .relaxed)) / 1_048_576))
      }
    }
    for sender in senders { _ = try? await sender.value }
    let joined = try await joinAll(server: server.process.processIdentifier, url: url, listID: origin.listID)
    let final = Self.memory(of: server.process.processIdentifier)
    let sessions = try await Self.sessions(port: server.port)
    let expectedAcks = writers * perWriter
    let stopStart = ContinuousClock.now
    let status = server.stop()
    let stopSeconds = (ContinuousClock.now - stopStart).seconds
    for channel in channels { await channel.close() }
    for receiver in receivers { await receiver.value }
    for descriptor in stalled { close(descriptor) }
    print(
      "peak RSS (VmHWM) \(final.hwm >> 20) MiB; RSS at the end \(final.rss >> 20) MiB (highest sampled \(peakRSS >> 20) MiB); before the pushes \(baseline.rss >> 20) MiB"
    )
    print(
      "sessions at the end \(sessions) of \(clients) (\(clients - sessions) dropped); pushes acknowledged \(counters.acks.load(ordering: .relaxed)) of \(expectedAcks); commits frames delivered \(String(format: "%.1f", Double(counters.received.load(ordering: .relaxed)) / 1_048_576)) MiB"
    )
    if let joined { print(joined) }
    print(String(format: "SIGTERM: exit %d after %.2f s", status, stopSeconds))
    let errors = counters.failures.withLock { $0 }
    for failure in errors.prefix(5) { print("failure: \(failure)") }
    _ = lowestSessions
    if !errors.isEmpty || counters.acks.load(ordering: .relaxed) != expectedAcks || status != 0 { throw ExitCode(1) }
  }

  /// `--joiners` sessions joining the list at once, each catching up on all of it (hello with an
  /// empty vector, then an empty push whose ack ends the catch-up); samples the server's RSS
  /// meanwhile. Nil without joiners.
  func joinAll(server pid: Int32, url: String, listID: UInt64) async throws -> String? {
    guard joiners > 0 else { return nil }
    let transport = WebSocketSyncTransport()
    let hello = SyncMessage.hello(version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(), genesis: nil).encoded()
    let empty = try ReplicaBatch(commits: [ReplicaCommit<String, SyncRow>](), listID: listID, codec: HistoryCodec())
    let barrier = SyncMessage.push(request: 1, batch: empty).encoded()
    let counters = MemoryCounters()
    let before = Self.memory(of: pid).rss
    let start = ContinuousClock.now
    var channels: [any SyncChannel] = []
    for _ in 0..<joiners { channels.append(try await transport.connect(to: url, bearer: nil)) }
    let sessions = channels.map { channel in
      Task {
        try await channel.send(hello)
        try await channel.send(barrier)
        var bytes = 0
        while let frame = try await channel.receive() {
          if frame.first == 0x05 { bytes += frame.count }
          // The ack of the empty push: everything stored before it has arrived.
          if frame.first == 0x04, (try? SyncMessage(decoding: frame)).map({ if case .ack(1, _, _) = $0 { true } else { false } }) == true {
            break
          }
        }
        counters.received.add(bytes, ordering: .relaxed)
        counters.acks.add(1, ordering: .relaxed)
        await channel.close()
        return bytes
      }
    }
    let sampler = Task {
      var peak = 0
      while !Task.isCancelled {
        peak = max(peak, Self.memory(of: pid).rss)
        try? await Task.sleep(for: .milliseconds(100))
      }
      return peak
    }
    for session in sessions { _ = try await session.value }
    sampler.cancel()
    let peak = await sampler.value
    return String(
      format: "%d joiners caught up in %.1f s, %.1f MiB of commits frames each; RSS before they joined %d MiB, highest sampled while they joined %d MiB",
      joiners, (ContinuousClock.now - start).seconds, Double(counters.received.load(ordering: .relaxed)) / 1_048_576 / Double(joiners),
      before >> 20, peak >> 20)
  }

  /// Random letters and digits (6 bits a byte: zstd saves only the other 2).
  static func randomText(_ count: Int, using generator: inout SyncWorkloadRandom) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var bytes = [UInt8](repeating: 0, count: count)
    var bits: UInt64 = 0
    for index in bytes.indices {
      // Ten characters from each 64-bit draw.
      if index % 10 == 0 { bits = generator.next() }
      bytes[index] = alphabet[Int(bits & 63)]
      bits >>= 6
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A socket that upgrades to a WebSocket, sends a masked hello and never reads again.
  static func nonReadingSocket(port: Int, list: String) throws -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BenchFailure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw BenchFailure("connect: errno \(errno)") }
    let hello = SyncMessage.hello(version: SyncMessage.protocolVersion, vector: ReplicaVersionVector(), genesis: nil).encoded()
    let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    let request = Array(
      ("GET /v1/lists/\(list)/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
    let frame = [0x82, 0x80 | UInt8(hello.count)] + mask + hello.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    for bytes in [request, frame] {
      let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent == bytes.count else { throw BenchFailure("send: errno \(errno)") }
    }
    return descriptor
  }

  /// The process's resident set and its peak (VmRSS, VmHWM), in bytes.
  static func memory(of pid: Int32) -> (rss: Int, hwm: Int) {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Int {
      guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
      else { return 0 }
      return kilobytes << 10
    }
    return (field("VmRSS"), field("VmHWM"))
  }

  /// The server's open sessions (`GET /health`).
  static func sessions(port: Int) async throws -> Int {
    let (data, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let sessions = object["sessions"] as? Int
    else { throw BenchFailure("/health answered \(String(decoding: data.prefix(200), as: UTF8.self))") }
    return sessions
  }
}

/// What the memory run's sessions count, shared by their tasks.
final class MemoryCounters: Sendable {
  let received = Atomic<Int>(0)
  let acks = Atomic<Int>(0)
  let failures = Mutex<[String]>([])
}
