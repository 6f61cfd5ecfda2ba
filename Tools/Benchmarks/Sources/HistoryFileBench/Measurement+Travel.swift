import BenchmarkSupport
import ListJournal

extension Measurement {
  /// `travel JOURNAL [--samples 50] [--seed 7] [--from store|file]`: `state(at:)` at `samples`
  /// random versions (the same ones for the same seed and journal) through the journal-backed
  /// store (`store`, the default) or `JournalTimeTravel` on the file (`file`); reports the
  /// median, p90, first and worst travel and the time to open.
  static func travel(_ arguments: inout Arguments) throws {
    let path = journalPath(arguments, "travel")
    let samples = arguments.int("samples", default: 50)
    let seed = UInt64(arguments.int("seed", default: 7))
    let source = arguments.string("from", default: "store")
    let settings = OpenSettings(&arguments)
    arguments.checkAllUsed()

    let start = benchmarkClock.now
    let state: (Version) throws -> RowStore.Snapshot
    let latest: Version
    let finish: () throws -> Void
    switch source {
    case "store":
      let journal = try RowJournal.open(at: path, configuration: settings.configuration())
      latest = journal.store.latestVersion
      state = { try journal.store.state(at: $0) }
      finish = { try journal.close() }
    case "file":
      let travel = try JournalTimeTravel<String, Row>.open(at: path)
      latest = travel.latestVersion
      state = { try travel.state(at: $0) }
      finish = {}
    default:
      Arguments.fail("--from: store or file, not \(source)")
    }
    let open = since(start)

    var random = SplitMix(state: seed)
    var travels = Samples()
    var items = 0
    var digest = Digest()
    for _ in 0..<samples {
      let version = Version(Int.random(in: 0...latest.rawValue, using: &random))
      let (snapshot, seconds) = try measure { try state(version) }
      items += snapshot.numberOfItems
      digest.add("\(readFirstScreen(of: snapshot))")
      travels.append(seconds)
    }
    try finish()

    var report = ChildReport()
    report.set("open", open)
    report.set("samples", travels.count)
    report.set("median", travels.median)
    report.set("p90", travels.percentile(0.9))
    report.set("first", travels.times.first ?? .infinity)
    report.set("worst", travels.max)
    report.set("meanItems", Double(items) / Double(max(1, samples)))
    report.set("digest", digest.value)
    report.set("peakMB", peakResidentMegabytes())
    report.emit()
  }
}
