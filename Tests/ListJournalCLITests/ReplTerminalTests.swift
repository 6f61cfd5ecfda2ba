import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drives `listjournal repl` through a real pseudo-terminal (tmux): typing, tab completion of
/// commands and identifiers, arrow-up history, undo/redo messages, Ctrl-D.
@Suite("REPL in a terminal", .enabled(if: TmuxSession.isAvailable, "tmux is not installed: the REPL terminal test is skipped"))
struct ReplTerminalTests {
  @Test func editingCompletionHistoryAndUndo() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    let tmux = try TmuxSession(command: Self.repl(binary, in: directory))
    defer { tmux.kill() }

    try tmux.waitFor("v0> ")
    try tmux.enter("append-sections Fruit", thenWaitFor: "v1> ")
    try tmux.enter("append apple pear", thenWaitFor: "v2> ")

    // Tab completes a command name, then an identifier from the current state.
    tmux.type("exp")
    tmux.keys("Tab")
    try tmux.waitFor("v2> expand")
    tmux.type("app")  // completion already added the space
    tmux.keys("Tab")
    try tmux.waitFor("v2> expand apple")
    tmux.keys("Enter")
    try tmux.waitFor("v3> ")

    // Arrow-up recalls the last line; running it again makes a new version.
    tmux.keys("Up")
    try tmux.waitFor("v3> expand apple")
    tmux.keys("Enter")
    try tmux.waitFor("v4> ")

    try tmux.enter("undo 2", thenWaitFor: "undid 4 Expand Item\nundid 3 Expand Item: expand apple\nhead is version 2")  // v4 expanded an expanded item: no events
    try tmux.waitFor("v2> ")
    try tmux.enter("redo", thenWaitFor: "redid 3 Expand Item: expand apple\nhead is version 3")
    try tmux.waitFor("v3> ")

    try tmux.enter("move pear before apple", thenWaitFor: "v5> ")
    try tmux.enter("show", thenWaitFor: "  • pear\n  • apple")

    try tmux.enter("move ghost before apple", thenWaitFor: "error: unknown items: 'ghost'")
    try tmux.waitFor("v5> ")

    tmux.keys("C-d")
    try tmux.waitForExit()

    let log = try CLIRunner.run(["log", "j.journal", "--format", "json"], in: directory)
    #expect(log.stdout.contains(#"{"version": 5, "parent": 3, "head": true, "label": "Move Item", "ops": 1}"#))
  }

  /// The shell command that starts the REPL on `journal` in `directory`, with the history
  /// file (and ~/.editrc) under `directory` instead of the user's.
  static func repl(_ binary: URL, in directory: URL, journal: String = "j.journal", environment: String = "") -> String {
    "cd '\(directory.path)' && HOME='\(directory.path)' XDG_STATE_HOME='\(directory.path)/state' NO_COLOR=1 "
      + "\(environment) '\(binary.path)' repl \(journal)"
  }

  @Test func ctrlCCancelsTheLineAndNeverEndsTheSession() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    let tmux = try TmuxSession(command: Self.repl(binary, in: directory))
    defer { tmux.kill() }

    try tmux.waitFor("v0> ")
    // Cancelling a half-typed line runs nothing and gives a fresh prompt.
    tmux.type("append-sections Fruit")
    tmux.keys("Left", "Left", "C-c")
    try tmux.waitFor("v0> append-sections Fruit^C\nv0> ")
    try tmux.enter("show", thenWaitFor: "version 0\n(empty)\nv0> ")

    // On an empty line inside a transaction it says how to end the transaction.
    try tmux.enter("begin", thenWaitFor: "v0+> ")
    try tmux.enter("append-sections S", thenWaitFor: "v0+> append-sections S\nv0+> ")
    tmux.keys("C-c")
    try tmux.waitFor(
      "v0+> ^C\n(the transaction begun at line 2 is still open: `rollback` drops it, `commit` keeps it)\nv0+> ")
    try tmux.enter("commit", thenWaitFor: "v0+> commit\ncommitted 1\nv1> ")
    tmux.keys("C-c")
    try tmux.waitFor("v1> ^C\nv1> ")

    tmux.keys("C-d")
    try tmux.waitForExit()
    let log = try CLIRunner.run(["log", "j.journal"], in: directory)
    #expect(log.stdout.contains("* 1  ← 0"))
    #expect(log.stdout.contains("insert section S"))
    #expect(!log.stdout.contains("Fruit"))
  }

  /// Ctrl-Z while typing suspends the REPL to the shell (the terminal restored) and `fg`
  /// takes the line up again.
  @Test func ctrlZSuspendsToTheShell() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    let tmux = try TmuxSession(command: "PS1='sh$ ' bash --norc --noprofile -i")
    defer { tmux.kill() }
    try tmux.waitFor("sh$ ")
    try tmux.enter(Self.repl(binary, in: directory), thenWaitFor: "v0> ")
    tmux.type("append-sec")
    tmux.keys("C-z")
    try tmux.waitFor("Stopped")
    try tmux.enter("echo suspended", thenWaitFor: "suspended\nsh$ ")
    try tmux.enter("fg", thenWaitFor: "repl j.journal\n")
    tmux.type("tions S")
    tmux.keys("Enter")
    try tmux.waitFor("v0> append-sections S\nv1> ")
    tmux.keys("C-d")
    try tmux.waitFor("sh$ ")
  }

  @Test func historyIsKeptAcrossSessionsUpToItsCap() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)

    let first = try TmuxSession(command: Self.repl(binary, in: directory))
    try first.waitFor("v0> ")
    try first.enter("append-sections Fruit", thenWaitFor: "v1> ")
    try first.enter("append apple", thenWaitFor: "v2> ")
    try first.enter("show", thenWaitFor: "v2> ")
    first.keys("C-d")
    try first.waitForExit()
    first.kill()
    let file = directory.appendingPathComponent("state/listjournal/history")
    #expect(FileManager.default.fileExists(atPath: file.path))

    let second = try TmuxSession(command: Self.repl(binary, in: directory))
    try second.waitFor("v2> ")
    second.keys("Up", "Up")
    try second.waitFor("v2> append apple")
    second.keys("C-c")
    try second.enter("history", thenWaitFor: "    1  append-sections Fruit\n    2  append apple\n    3  show\n")
    second.keys("C-d")
    try second.waitForExit()
    second.kill()

    // A smaller cap keeps the newest lines (a line repeating the one before is not added).
    let third = try TmuxSession(command: Self.repl(binary, in: directory, environment: "LISTJOURNAL_HISTORY_SIZE=2"))
    defer { third.kill() }
    try third.waitFor("v2> ")
    try third.enter("history", thenWaitFor: "v2> history\n    1  show\n    2  history\nv2> ")
    third.keys("C-d")
    try third.waitForExit()
  }

  @Test func tabCompletesQuotedIdentifiersAndVersions() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    let tmux = try TmuxSession(command: Self.repl(binary, in: directory))
    defer { tmux.kill() }

    try tmux.waitFor("v0> ")
    try tmux.enter("append-sections Fruit", thenWaitFor: "v1> ")
    try tmux.enter("append \"pink lady\" pear", thenWaitFor: "v2> ")
    // An unquoted start completes to the quoted identifier; so does a quoted one.
    tmux.type("expand pi")
    tmux.keys("Tab")
    try tmux.waitFor("v2> expand \"pink lady\"")
    tmux.keys("C-c")
    tmux.type("collapse \"pi")
    tmux.keys("Tab")
    try tmux.waitFor("v2> collapse \"pink lady\"")
    tmux.keys("C-c")
    // Versions after checkout and diff: the choices are listed, a unique one completed.
    tmux.type("checkout ")
    tmux.keys("Tab")
    try tmux.waitFor("head   head~  2      1      0")
    tmux.type("1")
    tmux.keys("Tab")
    try tmux.waitFor("v2> checkout 1")
    tmux.keys("Enter")
    try tmux.waitFor("head is version 1\nv1> ")
    tmux.type("diff 0 h")
    tmux.keys("Tab")
    try tmux.waitFor("v1> diff 0 head")
    tmux.keys("C-c")
    tmux.keys("C-d")
    try tmux.waitForExit()
  }

  @Test func errorsPointAtTheColumnAndHelpFitsTheTerminal() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(CLIRunner.binary)
    let tmux = try TmuxSession(command: Self.repl(binary, in: directory))
    defer { tmux.kill() }

    try tmux.waitFor("v0> ")
    try tmux.enter("append-sections S", thenWaitFor: "v1> ")
    try tmux.enter("move pear befor apple", thenWaitFor: "v1> move pear befor apple\n              ^\nerror: expected")
    try tmux.enter("help", thenWaitFor: "Type `help COMMAND` for details and an example.\nv1> ")
    let screen = tmux.screen()
    #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 120 })
    #expect(screen.contains("  history                               Lists the lines typed"))
    #expect(screen.contains("  quit | exit "))
    tmux.keys("C-d")
    try tmux.waitForExit()
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

  /// Types `line`, presses Enter, and waits until the screen shows `expected`.
  func enter(_ line: String, thenWaitFor expected: String) throws {
    type(line)
    keys("Enter")
    try waitFor(expected)
  }

  /// Runs `tmux -L SOCKET ARGUMENTS` and waits for it with posix_spawn + waitpid: Foundation's
  /// `Process` waits for a pipe that tmux's daemonized server inherits, so it would never return.
  @discardableResult
  private func tmux(_ arguments: [String], capture: Bool = false) -> Int32 {
    let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, capture ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // The test runner's threads block most signals and a spawned process inherits that mask:
    // without resetting it, tmux and the REPL under it would ignore SIGHUP from kill-server.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var emptySet = sigset_t()
    sigemptyset(&emptySet)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &emptySet)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    guard posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    if capture { capturedText = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
  }

  private var capturedText = ""

  /// Types literal text (no key names interpreted).
  func type(_ text: String) { tmux(["send-keys", "-t", name, "-l", text]) }

  /// Sends key names: Enter, Tab, Up, C-d.
  func keys(_ names: String...) { tmux(["send-keys", "-t", name] + names) }

  /// The visible screen, trailing blanks trimmed per line.
  func screen() -> String {
    tmux(["capture-pane", "-p", "-t", name], capture: true)
    return capturedText.split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
  }

  /// Waits until the screen's last non-empty lines contain `text` (up to 10 s).
  func waitFor(_ text: String, timeout: Double = 10) throws {
    // The captured screen has no trailing blanks, so neither may the text looked for.
    let text = String(text.reversed().drop { $0 == " " }.reversed())
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
