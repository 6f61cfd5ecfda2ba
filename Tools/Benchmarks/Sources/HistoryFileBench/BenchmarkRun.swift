import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole run: generates the journals (or reuses those a previous run left in the work
/// directory), measures each in processes of its own, and prints the figures and the targets.
///
/// This process only starts the others and keeps their reports: it must stay small, since a
/// child's peak resident set as the kernel reports it includes the parent's at the spawn.
///
/// Options:
///   --work DIR          where the generated journals are kept between runs (generation is
///                       skipped when a journal of the same name is complete there)
///   --regenerate        generate the journals again
///   --scratch DIR       where each measurement's copy of a journal goes (a temporary directory),
///                       so that --work may be another checkout's journals, only read
///   --sizes LIST        records of the mix journals with a 10,000-item head (10k,100k,1M,10M)
///   --large-head N      records of the journal with a larger head (1M; 0: none)
///   --large-head-items N  that head's rows (100k)
///   --app N             records of the journal written as an app writes (100k; 0: none); a
///                       batched journal of the same records is generated beside it
///   --travel N          the mix journal (by records) that time travel runs in (1M; 0: none)
///   --repeats R         opens per journal (5; 1 for journals of 10M records or more)
///   --samples S         random versions per time-travel run (50)
struct BenchmarkRun {
  static let flags: Set<String> = ["regenerate"]

  let work: String
  let scratch: String
  let regenerate: Bool
  let sizes: [Int]
  let largeHead: JournalSpec?
  let appWritten: JournalSpec?
  let travelRecords: Int
  let repeats: Int
  let samples: Int
  let settings: OpenSettings
  let executable = currentExecutablePath()

  init(_ arguments: inout Arguments) {
    let temporary = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    work = arguments.string("work", default: temporary + "/listjournal-history-file")
    scratch = arguments.string("scratch", default: temporary + "/listjournal-history-file-scratch-\(getpid())")
    regenerate = arguments.flag("regenerate")
    let app = arguments.int("app", default: 100_000)
    sizes = Array(Set(arguments.ints("sizes", default: [10_000, 100_000, 1_000_000, 10_000_000]) + (app > 0 ? [app] : []))).sorted()
    let largeHeadRecords = arguments.int("large-head", default: 1_000_000)
    let largeHeadItems = arguments.int("large-head-items", default: 100_000)
    largeHead = largeHeadRecords > 0 ? JournalSpec(records: largeHeadRecords, headItems: largeHeadItems) : nil
    appWritten = app > 0 ? JournalSpec(records: app, writes: .app) : nil
    travelRecords = arguments.int("travel", default: 1_000_000)
    repeats = arguments.int("repeats", default: 5)
    samples = arguments.int("samples", default: 50)
    settings = OpenSettings(&arguments)
    arguments.checkAllUsed()
    if travelRecords > 0, !sizes.contains(travelRecords) { Arguments.fail("--travel \(travelRecords) is not one of --sizes") }
  }

  /// The journals of a 10,000-item head, batched.
  var mixJournals: [JournalSpec] { sizes.map { JournalSpec(records: $0) } }

  /// Every journal, in the order they are generated and measured.
  var journals: [JournalSpec] { mixJournals + [largeHead, appWritten].compactMap { $0 } }

  func run() {
    makeDirectories(work)
    makeDirectories(scratch)
    defer { rmdir(scratch) }
    func count(_ value: Int?) -> String { value.map { $0 > 0 ? grouped(Double($0)) : "none" } ?? "none" }
    Results.begin(
      "HistoryFileBench",
      settings: [[
        "sizes \(sizes.map { count($0) }.joined(separator: "/"))",
        "large head \(count(largeHead?.records)) records of \(count(largeHead?.headItems)) rows",
        "app-written \(count(appWritten?.records))", "travel in \(count(travelRecords))", "repeats \(repeats)",
        "samples \(samples)", "opens with \(settings.summary)", "work \(work)",
      ].joined(separator: "; ")])
    Results.write("HistoryFileBench: an app's Row (String id, String title; Codable) in one section; a 1,000-row")
    Results.write("list, then N records of the mix (35% title edits, 20% moves, 30% inserts or deletes holding")
    Results.write("the list at its head size, 10% expand/collapse, 5% undo+redo pairs; undo and redo count one")
    Results.write("record each); every measurement in a fresh process on a fresh copy of the generated journal.")

    var figures = RunFigures()
    for spec in journals { figures.generated[spec] = generated(spec) }
    for spec in journals {
      let count = spec.records >= 10_000_000 ? 1 : repeats
      figures.opens[spec] = (0..<count).map { _ in openCommit(spec, generated: figures.generated[spec]!) }
    }
    for spec in mixJournals + [largeHead].compactMap({ $0 }) {
      figures.headStates[spec] = headState(spec, generated: figures.generated[spec]!)
      figures.undoWalks[spec] = undoWalk(spec)
    }
    if travelRecords > 0 {
      let spec = JournalSpec(records: travelRecords)
      let store = travel(spec, from: "store")
      let file = travel(spec, from: "file")
      check(store["digest"] == file["digest"], "the store and JournalTimeTravel gave different states at the same versions")
      (figures.storeTravel, figures.fileTravel) = (store, file)
    }
    Results.write()
    report(figures)
    Results.write("# load average at the end \(loadAverage())")
  }
}

/// What the run measured, by journal.
struct RunFigures {
  var generated: [JournalSpec: ChildReport] = [:]
  var opens: [JournalSpec: [ChildRunReport]] = [:]
  var headStates: [JournalSpec: ChildReport] = [:]
  var undoWalks: [JournalSpec: ChildRunReport] = [:]
  var storeTravel: ChildRunReport?
  var fileTravel: ChildRunReport?
}

/// A measurement's report with what its parent saw of the process.
struct ChildRunReport {
  var report: ChildReport
  /// Spawn to exit.
  var processSeconds: Double
  /// The process's CPU time, every thread.
  var processCPUSeconds: Double
  subscript(key: String) -> Double { report.required(key) }
}
