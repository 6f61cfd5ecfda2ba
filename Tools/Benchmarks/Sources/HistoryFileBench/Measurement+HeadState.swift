import BenchmarkSupport
import ListJournal

extension Measurement {
  /// `head-state DUMP`: builds the state a ``HeadDump`` holds, without any journal, and reports
  /// the resident set of a process that holds it (and nothing else but the runtime): the
  /// "head's state" that the memory target adds its allowance to.
  static func headState(_ arguments: inout Arguments) throws {
    guard let path = arguments.positional.dropFirst().first else { Arguments.fail("head-state: which dump?") }
    arguments.checkAllUsed()
    let baseline = residentMegabytes()
    let (snapshot, build) = try measure { try HeadDump.read(path) }
    // Give back what reading the dump freed, so the resident set is what the state holds.
    returnFreedMemory()
    let resident = residentMegabytes()

    var report = ChildReport()
    report.set("items", snapshot.numberOfItems)
    report.set("headDigest", readFirstScreen(of: snapshot))
    report.set("buildSeconds", build)
    report.set("baselineMB", baseline)
    report.set("residentMB", resident)
    report.set("estimatedMB", Double(CheckpointBudget.estimatedCost(of: snapshot)) / 1_048_576)
    report.set("peakMB", peakResidentMegabytes())
    report.emit()
    withExtendedLifetime(snapshot) {}
  }
}
