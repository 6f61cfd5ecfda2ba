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
  /// Returns a digest of them and of the row count, which the run compares between processes
  /// (a faster open must show the same head), and which keeps the reads from being optimized
  /// away.
  static func readFirstScreen(of snapshot: RowStore.Snapshot) -> Int {
    var digest = Digest()
    digest.add("\(snapshot.numberOfItems)")
    let visible = snapshot.numberOfVisibleItems(inSection: listSection) ?? 0
    for row in 0..<min(50, visible) {
      if let id = snapshot.visibleItem(at: ListIndexPath(section: 0, row: row)) {
        digest.add(id)
        digest.add(snapshot.item(id)?.title ?? "")
      }
    }
    return digest.value
  }
}

/// FNV-1a over strings, the same in every process (unlike `Hasher`), cut to 52 bits so that a
/// report's `Double` holds it exactly.
struct Digest {
  private var state: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ text: String) {
    for byte in text.utf8 { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
    state = (state ^ 0xff) &* 0x100_0000_01b3
  }

  var value: Int { Int(state & (1 << 52 - 1)) }
}
