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
  /// stderr, ends at 100% and erases it before printing its report.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is not installed"))
  func replayDrawsTheBarOnATerminal() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = try CLIRunner.run(["exec", "j.journal"], stdin: "append-sections S\nappend a\nundo\n", in: directory)
    let binary = try #require(CLIRunner.binary)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", "'\(binary.path)' replay j.journal", "/dev/null"]
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0)
    #expect(text.hasPrefix("\rreplaying [------------------------------]   0%  0/3 records"), "\(text.debugDescription)")
    #expect(text.contains("\rreplaying [##############################] 100%  3/3 records\r\u{1B}[2Kversions: 3\r\n"), "\(text.debugDescription)")
  }
}
