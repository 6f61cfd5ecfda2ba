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
}
