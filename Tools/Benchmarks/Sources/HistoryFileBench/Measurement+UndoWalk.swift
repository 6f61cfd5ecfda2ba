import BenchmarkSupport
import ListJournal

extension Measurement {
  /// `undo-walk JOURNAL [--steps 1000] [--commits 100]`: open, undo `steps` times (each timed),
  /// then make `commits` commits on the branch that starts there; reports the steps' median,
  /// p90 and worst time, and the peak resident set before and after `close`.
  static func undoWalk(_ arguments: inout Arguments) throws {
    let path = journalPath(arguments, "undo-walk")
    let steps = arguments.int("steps", default: 1_000)
    let commits = arguments.int("commits", default: 100)
    let settings = OpenSettings(&arguments)
    arguments.checkAllUsed()
    let start = benchmarkClock.now
    let journal = try RowJournal.open(at: path, configuration: settings.configuration())
    let open = since(start)
    let estimate = CheckpointBudget.estimatedCost(of: journal.store.snapshot)

    var undos = Samples()
    for _ in 0..<steps where journal.store.canUndo {
      undos.append(try time { _ = try journal.store.undo() })
    }
    let commitStart = benchmarkClock.now
    for serial in 0..<commits {
      try journal.store.appendItems([Row(id: "after-undo-\(serial)", title: "Added after the undos #\(serial)")], toSection: listSection)
    }
    let commitSeconds = since(commitStart)
    let peak = peakResidentMegabytes()
    let resident = residentMegabytes()
    try journal.close()

    var report = ChildReport()
    report.set("open", open)
    report.set("steps", undos.count)
    report.set("median", undos.median)
    report.set("p90", undos.percentile(0.9))
    report.set("worst", undos.max)
    report.set("first", undos.times.first ?? .infinity)
    report.set("commitsSeconds", commitSeconds)
    report.set("estimatedHeadMB", Double(estimate) / 1_048_576)
    report.set("peakMB", peak)
    report.set("residentMB", resident)
    report.set("peakAfterCloseMB", peakResidentMegabytes())
    report.emit()
  }
}
