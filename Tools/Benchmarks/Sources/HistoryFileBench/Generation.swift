import BenchmarkSupport
import ListJournal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `generate PATH [spec options]`: writes the journal a ``JournalSpec`` describes at PATH (and
/// the head's rows beside it, ``HeadDump``), and reports how long that took and what it weighs.
enum Generation {
  static func run(_ arguments: inout Arguments) throws {
    guard let path = arguments.positional.dropFirst().first else { Arguments.fail("generate: which file?") }
    let spec = JournalSpec(&arguments)
    let staging = arguments.int("staging", default: 0)
    arguments.checkAllUsed()
    removeFile(path)
    removeFile(path + ".index")

    let clock = SyntheticClock(start: 1_800_000_000)
    var configuration = JournalStoreConfiguration()
    switch spec.writes {
    case .batched:
      configuration.durability = .relaxed
      configuration.defersWrites = true
    case .app:
      configuration.durability = .grouped
    }
    configuration.options.stagingBatchRecords = staging
    configuration.store.clock = { clock.now }
    var mix = AppMix(seed: spec.seed, headItems: spec.headItems)
    var report = ChildReport()
    let start = benchmarkClock.now

    let journal = try RowJournal.open(at: path, configuration: configuration)
    let initialRows = mix.initialRows(JournalSpec.initialItems)
    try journal.store.transaction(label: "Load") { tx in
      try tx.appendSections([listSection])
      try tx.appendItems(initialRows, toSection: listSection)
    }
    try journal.sync()
    report.set("loadBytes", fileSize(path) ?? 0)

    let stepsStart = benchmarkClock.now
    var written = 0
    let progressEvery = max(1, spec.records / 10)
    var nextProgress = progressEvery
    while written < spec.records {
      clock.advance(by: mix.pause())
      written += try mix.step(journal.store, recordsLeft: spec.records - written)
      if spec.writes == .app { try journal.makeDurable(through: journal.store.head) }
      if written >= nextProgress {
        nextProgress += progressEvery
        let seconds = BenchmarkSupport.seconds(benchmarkClock.now - stepsStart)
        printError("  \(spec.name): \(grouped(Double(written))) records, \(durationText(seconds))")
      }
    }
    let stepsSeconds = BenchmarkSupport.seconds(benchmarkClock.now - stepsStart)
    let closeStart = benchmarkClock.now
    try journal.close()
    let end = benchmarkClock.now
    let head = journal.store.snapshot
    precondition(head.numberOfItems == mix.itemCount, "the store's head has \(head.numberOfItems) rows, the mix's record \(mix.itemCount)")
    HeadDump.write(head, to: path + ".head")

    report.set("records", written)
    report.set("versions", journal.store.latestVersion.rawValue + 1)
    report.set("headItems", head.numberOfItems)
    report.set("headDigest", Measurement.readFirstScreen(of: head))
    report.set("stepsSeconds", stepsSeconds)
    report.set("closeSeconds", BenchmarkSupport.seconds(end - closeStart))
    report.set("seconds", BenchmarkSupport.seconds(end - start))
    report.set("fileBytes", fileSize(path) ?? 0)
    report.set("indexBytes", fileSize(path + ".index") ?? 0)
    report.set("peakMB", peakResidentMegabytes())
    report.emit()
  }
}
