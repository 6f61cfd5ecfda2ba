import Foundation
import ListHistory
import ListReplica
import Testing

/// A real process writing a replica journal (JournalTool's `replica-crash-writer`: local
/// commits and received batches, strict durability) is SIGKILLed at random moments; after every
/// kill the journal reopens holding every commit the writer acknowledged, each once, and its
/// list is the agreed order of its commits folded from the base.
@Suite struct ReplicaCrashTests {
  static var tool: URL? {
    let start = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var candidates = [start.appendingPathComponent("JournalTool")]
    for bundle in Bundle.allBundles {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("JournalTool"))
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  @Test func killedWritersLoseNoAcknowledgedCommit() throws {
    let tool = try #require(Self.tool, "JournalTool was not built next to the tests")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replica-crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let journal = directory.appendingPathComponent("replica.journal").path
    let codec = HistoryCodec<String, String>()
    var acknowledged = Set<String>()
    var random = SystemRandomNumberGenerator()
    for round in 0..<12 {
      let output = directory.appendingPathComponent("out-\(round)")
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      let process = Process()
      process.executableURL = tool
      process.arguments = ["replica-crash-writer", journal, "\(round + 1)"]
      process.standardOutput = try FileHandle(forWritingTo: output)
      process.standardError = FileHandle.nullDevice
      try process.run()
      // Once the writer is under way (its first acknowledgement; a loaded machine starts it
      // slowly), kill it at a random moment.
      for _ in 0..<1_000 {
        if let text = try? String(contentsOf: output, encoding: .utf8), text.contains("acked ") { break }
        usleep(5_000)
      }
      usleep(UInt32(random.next() % 150_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let text = try String(contentsOf: output, encoding: .utf8)
      // The last line may be cut by the kill: only complete lines count.
      for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() where line.hasPrefix("acked ") {
        acknowledged.insert(String(line.dropFirst(6)))
      }
      guard FileManager.default.fileExists(atPath: journal) else { continue }
      let replica = try ListReplica<String, String>.open(at: journal, codec: codec)
      let held = Set(replica.commits.map(\.id.description))
      #expect(held.count == replica.commitCount, "round \(round): a commit is held twice")
      for id in acknowledged { #expect(held.contains(id), "round \(round): acknowledged commit \(id) lost") }
      let folded = ListReplica<String, String>(replica: ReplicaID(rawValue: 9), listID: replica.listID, base: replica.base)
      try folded.receive(replica.commits.reversed())
      #expect(folded.snapshot == replica.snapshot, "round \(round): the reopened list is not its commits' fold")
      try replica.close()
    }
    #expect(acknowledged.count > 10, "the writer acknowledged too little to test anything")
  }
}
