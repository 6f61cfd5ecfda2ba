import Foundation
import Testing

@testable import ListJournalCLI

@Suite("progress bar")
struct ProgressBarTests {
  @Test func drawsAtMostTenTimesASecondAndAlwaysTheLastStep() {
    var now = 0.0
    var drawn: [String] = []
    let bar = ProgressBar(label: "replaying", width: 10, clock: { now }) { drawn.append($0) }
    // 100,000 steps over 2 simulated seconds.
    for done in 0...100_000 {
      now = Double(done) / 50_000
      bar.update(done: done, total: 100_000)
    }
    #expect(bar.drawCount >= 15)
    #expect(bar.drawCount <= 22)
    #expect(drawn.first == "\rreplaying [----------]   0%  0/100000 records")
    #expect(drawn.last == "\rreplaying [##########] 100%  100000/100000 records")
    bar.finish()
    #expect(drawn.last == "\r\u{1B}[2K")
  }

  /// `NO_COLOR`: no escape sequence at all; a shorter line is padded over the longer one and
  /// the bar is erased with spaces.
  @Test func withoutEscapesTheBarIsErasedWithSpaces() {
    var drawn: [String] = []
    let bar = ProgressBar(label: "x", unit: "bytes", width: 4, erasesWithEscape: false, clock: { 0 }) { drawn.append($0) }
    bar.update(done: 100, total: 1000)
    bar.clear()
    bar.update(done: 1000, total: 1000)
    bar.finish()
    #expect(drawn == [
      "\rx [----]  10%  100/1000 bytes", "\r" + String(repeating: " ", count: 29) + "\r", "\rx [####] 100%  1000/1000 bytes",
      "\r" + String(repeating: " ", count: 30) + "\r",
    ])
    #expect(!drawn.joined().contains("\u{1B}"))
  }

  /// A bar that shows after a delay draws nothing for a job done before it.
  @Test func aDelayedBarStaysHiddenForAQuickJob() {
    var now = 0.0
    var drawn: [String] = []
    let bar = ProgressBar(label: "x", width: 4, showingAfter: 0.25, clock: { now }) { drawn.append($0) }
    for done in 0...10 { bar.update(done: done, total: 10) }
    bar.finish()
    #expect(drawn.isEmpty)
    let slow = ProgressBar(label: "x", width: 4, showingAfter: 0.25, clock: { now }) { drawn.append($0) }
    for done in 0...1_000 {
      now = Double(done) / 1_000
      slow.update(done: done, total: 1_000)
    }
    #expect(slow.drawCount >= 2)
    #expect(drawn.last == "\rx [####] 100%  1000/1000 records")
  }

  @Test func lineShowsTheFraction() {
    #expect(ProgressBar.line(label: "x", done: 37, total: 100, width: 10) == "x [###-------]  37%  37/100 records")
    #expect(ProgressBar.line(label: "x", done: 0, total: 0, width: 4) == "x [####] 100%  0/0 records")
  }

  @Test func nothingIsDrawnWhenStderrIsNotATerminal() throws {
    // The test runner's stderr is a pipe or file under `swift test`; the CLI runner's always is.
    let directory = try CLIRunner.temporaryDirectory()
    _ = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\n", in: directory)
    let replay = try CLIRunner.run(["replay", "j.journal"], in: directory)
    #expect(replay.status == 0)
    #expect(replay.stderr.isEmpty)
  }

  /// On a terminal (a pseudo-terminal from util-linux `script`), `replay` draws the bar on
  /// stderr, ends at 100% and erases it before printing its report: with an escape sequence,
  /// or with `NO_COLOR` with spaces.
  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is not installed"),
    arguments: [false, true])
  func replayDrawsTheBarOnATerminal(noColor: Bool) throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nappend a\nundo\n", in: directory)
    let binary = try #require(CLIRunner.binary)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", "'\(binary.path)' replay j.journal", "/dev/null"]
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = noColor ? "1" : nil
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(text.hasPrefix("\rreplaying [------------------------------]   0%  0/3 records"), "\(text.debugDescription)")
    let erase = noColor ? "\r" + String(repeating: " ", count: 60) + "\r" : "\r\u{1B}[2K"
    #expect(text.contains("\rreplaying [##############################] 100%  3/3 records\(erase)versions: 3\r\n"), "\(text.debugDescription)")
    #expect(text.contains("\u{1B}") == !noColor)
  }
}
