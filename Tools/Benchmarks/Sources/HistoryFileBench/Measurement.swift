import BenchmarkSupport
import ListJournal

/// The measurements, each run in a process of its own (``BenchmarkRun`` starts them), so that
/// launch, the first touch of every page and the peak resident set are an app's. Each reports
/// its figures as a ``ChildReport``.
enum Measurement {
  /// The journal file a measurement subcommand names.
  static func journalPath(_ arguments: Arguments, _ subcommand: String) -> String {
    guard let path = arguments.positional.dropFirst().first else { Arguments.fail("\(subcommand): which journal?") }
    return path
  }

  /// Seconds since `start` on the monotonic clock.
  static func since(_ start: ContinuousClock.Instant) -> Double { seconds(benchmarkClock.now - start) }

  /// What an app's first frame reads: the first screen of visible rows (50) and their titles.
  /// Returns their titles' total length, so that the reads are not optimized away.
  static func readFirstScreen(of snapshot: RowStore.Snapshot) -> Int {
    var length = 0
    let visible = snapshot.numberOfVisibleItems(inSection: listSection) ?? 0
    for row in 0..<min(50, visible) {
      if let id = snapshot.visibleItem(at: ListIndexPath(section: 0, row: row)) {
        length += snapshot.item(id)?.title.utf8.count ?? 0
      }
    }
    return length
  }
}
