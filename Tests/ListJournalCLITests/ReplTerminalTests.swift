import Foundation
import Testing

/// Drives `listjournal repl` through a real pseudo-terminal (tmux): typing, tab completion of
/// commands and identifiers, arrow-up history, undo/redo messages, Ctrl-D.
@Suite("REPL in a terminal", .enabled(if: TmuxSession.isAvailable, "tmux is not installed: the REPL terminal test is skipped"))
struct ReplTerminalTests {
  @Test func editingCompletionHistoryAndUndo() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    let tmux = try TmuxSession(command: "cd '\(directory.path)' && NO_COLOR=1 '\(binary.path)' repl j.journal")
    defer { tmux.kill() }

    try tmux.waitFor("v0> ")
    tmux.type("append-sections Fruit")
    tmux.keys("Enter")
    try tmux.waitFor("v1> ")
    tmux.type("append apple pear")
    tmux.keys("Enter")
    try tmux.waitFor("v2> ")

    // Tab completes a command name, then an identifier from the current state.
    tmux.type("exp")
    tmux.keys("Tab")
    try tmux.waitFor("v2> expand")
    tmux.type(" app")
    tmux.keys("Tab")
    try tmux.waitFor("v2> expand apple")
    tmux.keys("Enter")
    try tmux.waitFor("v3> ")

    // Arrow-up recalls the last line; running it again makes a new version.
    tmux.keys("Up")
    try tmux.waitFor("v3> expand apple")
    tmux.keys("Enter")
    try tmux.waitFor("v4> ")

    tmux.type("undo 2")
    tmux.keys("Enter")
    try tmux.waitFor("undid 3 Expand Item: expand apple")
    try tmux.waitFor("v2> ")
    tmux.type("redo")
    tmux.keys("Enter")
    try tmux.waitFor("redid 3 Expand Item: expand apple")
    try tmux.waitFor("v3> ")

    tmux.type("move pear before apple")
    tmux.keys("Enter")
    try tmux.waitFor("v5> ")
    tmux.type("show")
    tmux.keys("Enter")
    try tmux.waitFor("  • pear\n  • apple")

    tmux.type("move ghost before apple")
    tmux.keys("Enter")
    try tmux.waitFor("error: unknown items: 'ghost'")
    try tmux.waitFor("v5> ")

    tmux.keys("C-d")
    try tmux.waitForExit()

    let log = try CLIRunner.run(["log", "j.journal", "--format", "json"], in: directory)
    #expect(log.stdout.contains(#"{"version": 5, "parent": 3, "head": true, "label": "Move Item", "ops": 1}"#))
  }
}

/// A detached tmux session on a private server socket, for driving a terminal program.
final class TmuxSession {
  static let isAvailable: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-V"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  let socket = "listjournal-test-\(UUID().uuidString.prefix(8))"
  let name = "repl"

  init(command: String) throws {
    let status = tmux(["new-session", "-d", "-x", "120", "-y", "40", "-s", name, command])
    guard status == 0 else { throw TmuxError(message: "tmux new-session failed with status \(status)") }
  }

  struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  @discardableResult
  private func tmux(_ arguments: [String], output: Pipe? = nil) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux", "-L", socket] + arguments
    process.standardOutput = output ?? Pipe()
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    if let output {
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      capturedText = String(decoding: data, as: UTF8.self)
    } else {
      process.waitUntilExit()
    }
    return process.terminationStatus
  }

  private var capturedText = ""

  /// Types literal text (no key names interpreted).
  func type(_ text: String) { tmux(["send-keys", "-t", name, "-l", text]) }

  /// Sends key names: Enter, Tab, Up, C-d.
  func keys(_ names: String...) { tmux(["send-keys", "-t", name] + names) }

  /// The visible screen, trailing blanks trimmed per line.
  func screen() -> String {
    tmux(["capture-pane", "-p", "-t", name], output: Pipe())
    return capturedText.split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
  }

  /// Waits until the screen's last non-empty lines contain `text` (up to 10 s).
  func waitFor(_ text: String, timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      last = screen()
      if last.contains(text) { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("timed out waiting for \(text.debugDescription); the screen shows:\n\(last)")
    throw TmuxError(message: "timed out waiting for \(text.debugDescription)")
  }

  /// Waits until the program exits and tmux closes the session.
  func waitForExit(timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if tmux(["has-session", "-t", name]) != 0 { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw TmuxError(message: "the REPL did not exit")
  }

  func kill() { tmux(["kill-server"]) }
}
