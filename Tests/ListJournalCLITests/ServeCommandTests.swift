import Foundation
import Testing

/// `listjournal serve` runs `listjournal-server serve …`, git-style, or says how to build it.
@Suite("serve: the external sync server")
struct ServeCommandTests {
  @Test func aMissingServerIsExplainedWithHowToBuildIt() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    let beside = binary.deletingLastPathComponent().path
    // Skip when a developer has built the server into the same folder.
    guard !FileManager.default.isExecutableFile(atPath: beside + "/listjournal-server") else { return }
    let result = try CLIRunner.run(["serve", "--port", "8080"], in: directory, environment: ["PATH": directory.path])
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        error: `listjournal serve` runs the sync server, listjournal-server, which was not found beside \
        listjournal (\(beside)) or on PATH.
        Build it from a checkout of ListJournal with:
          swift build -c release --package-path Server
        then put Server/.build/release/listjournal-server beside listjournal or on PATH.

        """)
  }

  @Test func theServerOnPathGetsServeAndEveryArgument() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    guard !FileManager.default.isExecutableFile(atPath: binary.deletingLastPathComponent().path + "/listjournal-server")
    else { return }
    let fake = directory.appendingPathComponent("listjournal-server")
    try "#!/bin/sh\necho \"ran: $*\"\nexit 3\n".write(to: fake, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
    let result = try CLIRunner.run(
      ["serve", "--port", "8080", "--data", "my lists", "--help"], in: directory,
      environment: ["PATH": "/nonexistent:" + directory.path + ":/bin:/usr/bin"])
    #expect(result.stdout == "ran: serve --port 8080 --data my lists --help\n")
    #expect(result.stderr == "")
    // The server replaced the CLI's process: its exit code is the command's.
    #expect(result.status == 3)
  }
}
