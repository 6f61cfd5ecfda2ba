import BenchmarkSupport
import ListJournal

extension Measurement {
  /// `open-commit JOURNAL`: open, read the first screen of the head, make one commit, close —
  /// an app's launch and first edit. Reports the time from the call to `open` until the head
  /// is readable (`head`), until the commit returned (`commit`) and until `close` returned
  /// (`whole`), and the process's CPU time (every thread) over the first two (`headCPU`,
  /// `commitCPU`).
  static func openCommit(_ arguments: inout Arguments) throws {
    let path = journalPath(arguments, "open-commit")
    let settings = OpenSettings(&arguments)
    arguments.checkAllUsed()
    let startCPU = processCPUSeconds()
    let start = benchmarkClock.now
    let journal = try RowJournal.open(at: path, configuration: settings.configuration())
    let headDigest = readFirstScreen(of: journal.store.snapshot)
    let head = since(start)
    let headCPU = processCPUSeconds() - startCPU
    try journal.store.appendItems([Row(id: "added-after-launch", title: "Added after the launch")], toSection: listSection)
    let commit = since(start)
    let commitCPU = processCPUSeconds() - startCPU
    try journal.close()
    let whole = since(start)

    var report = ChildReport()
    report.set("head", head)
    report.set("commit", commit)
    report.set("whole", whole)
    report.set("headCPU", headCPU)
    report.set("commitCPU", commitCPU)
    report.set("items", journal.store.snapshot.numberOfItems)
    report.set("versions", journal.store.latestVersion.rawValue + 1)
    report.set("headDigest", headDigest)
    report.set("peakMB", peakResidentMegabytes())
    report.emit()
  }
}
