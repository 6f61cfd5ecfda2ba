import Foundation
import Testing

/// Golden end-to-end tests: each `Golden/NAME.list` is a list-language script whose header
/// lines `#$ SUBCOMMAND ARGS…` say what to run (the journal path is inserted after the
/// subcommand, and `exec` gets the script as well; without directives: exec, show, show json).
/// For several journals (replicas): `#$ @PATH SUBCOMMAND ARGS…` runs on PATH instead of
/// `test.journal`; a line `#@ FILE` starts a further script, up to the next `#@` line, written
/// as FILE (the main script ends at the first one), which `#$ exec FILE ARGS…` runs.
/// The transcript of every run — the command, its stdout, its stderr prefixed `stderr: `, its
/// exit status — must equal `Golden/NAME.golden` byte for byte.
///
/// `LISTJOURNAL_UPDATE_GOLDEN=1 swift test --filter GoldenTests` rewrites the golden files;
/// review the diff before committing it.
@Suite("Golden transcripts")
struct GoldenTests {
  static let cases: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: CLIRunner.goldenDirectory.path)) ?? []
    return names.filter { $0.hasSuffix(".list") }.map { String($0.dropLast(5)) }.sorted()
  }()

  @Test func goldenCasesExist() {
    #expect(Self.cases.count >= 8, "Golden/*.list not found at \(CLIRunner.goldenDirectory.path)")
  }

  @Test(arguments: cases)
  func transcriptMatches(_ name: String) throws {
    let script = CLIRunner.goldenDirectory.appendingPathComponent("\(name).list")
    let goldenURL = CLIRunner.goldenDirectory.appendingPathComponent("\(name).golden")
    let text = try String(contentsOf: script, encoding: .utf8)
    var directives = text.split(separator: "\n").filter { $0.hasPrefix("#$ ") }.map {
      $0.dropFirst(3).split(separator: " ").map(String.init)
    }
    if directives.isEmpty { directives = [["exec"], ["show"], ["show", "--format", "json"]] }
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for (file, contents) in Self.scripts(text) {
      try contents.write(to: directory.appendingPathComponent(file), atomically: false, encoding: .utf8)
    }

    var transcript = ""
    for directive in directives {
      var directive = directive[...]
      var journal = "test.journal"
      if let first = directive.first, first.hasPrefix("@") {
        journal = String(first.dropFirst())
        directive = directive.dropFirst()
      }
      var arguments = [directive[directive.startIndex], journal]
      if directive.first == "exec", directive.dropFirst().first?.hasSuffix(".list") != true { arguments.append("script.list") }
      arguments += directive.dropFirst()
      let result = try CLIRunner.run(arguments, in: directory)
      transcript += "$ listjournal \(arguments.joined(separator: " "))\n"
      transcript += result.stdout
      for line in result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        transcript += "stderr: \(line)\n"
      }
      transcript += "exit \(result.status)\n"
    }

    if ProcessInfo.processInfo.environment["LISTJOURNAL_UPDATE_GOLDEN"] == "1" {
      try transcript.write(to: goldenURL, atomically: true, encoding: .utf8)
      return
    }
    let golden = try String(contentsOf: goldenURL, encoding: .utf8)
    #expect(transcript == golden, "\(name): transcript differs from \(goldenURL.lastPathComponent)")
    if transcript != golden {
      // Show the first differing line to make the failure readable.
      let actualLines = transcript.split(separator: "\n", omittingEmptySubsequences: false)
      let goldenLines = golden.split(separator: "\n", omittingEmptySubsequences: false)
      for index in 0..<max(actualLines.count, goldenLines.count) {
        let actual = index < actualLines.count ? String(actualLines[index]) : "<none>"
        let expected = index < goldenLines.count ? String(goldenLines[index]) : "<none>"
        if actual != expected {
          Issue.record("line \(index + 1): expected \(expected.debugDescription), got \(actual.debugDescription)")
          break
        }
      }
    }
  }

  /// The scripts of a `.list` file: `script.list` (everything before the first `#@ FILE` line;
  /// the whole file when there is none), then each `#@ FILE` block.
  static func scripts(_ text: String) -> [(file: String, contents: String)] {
    var scripts: [(file: String, contents: String)] = [("script.list", "")]
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if text.hasSuffix("\n") { lines.removeLast() }
    for line in lines {
      if line.hasPrefix("#@ ") {
        scripts.append((String(line.dropFirst(3)), ""))
      } else {
        scripts[scripts.count - 1].contents += line + "\n"
      }
    }
    if !text.hasSuffix("\n"), !scripts[scripts.count - 1].contents.isEmpty { scripts[scripts.count - 1].contents.removeLast() }
    return scripts
  }
}
