// swift-tools-version:6.1
import PackageDescription

// Every benchmark runner, in one package that depends on ListJournal by path exactly as an app
// does: no unsafe flags, so the numbers are those of the build a user gets (see README.md).
let package = Package(
  name: "ListJournalBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "ListJournal", path: "../.."),
    // Only for a reference row of ListStateBench: the persistent hash map the model's identifier
    // index resembles.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    // The one timing harness (monotonic clock, warm-up, repeats, median and min) and the results
    // writer every runner shares.
    .target(name: "BenchmarkSupport"),
    .executableTarget(
      name: "ListStateBench",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "ListState", package: "ListJournal"),
        .product(name: "HashTreeCollections", package: "swift-collections"),
      ]),
    .executableTarget(
      name: "HistoryBench",
      dependencies: ["BenchmarkSupport", .product(name: "ListJournal", package: "ListJournal")]),
    .executableTarget(
      name: "DiffBench",
      dependencies: ["BenchmarkSupport", .product(name: "ListJournal", package: "ListJournal")]),
    // An app-like consumer: its own Codable element types, the public API only; run in debug
    // and in release by Tools/bench-app.
    .executableTarget(
      name: "AppBench",
      dependencies: ["BenchmarkSupport", .product(name: "ListJournal", package: "ListJournal")]),
    // Replicas on the replica workload (Tools/Benchmarks/replica-workload.py): merge of two
    // replicas' concurrent edits, catch-up, bytes on the wire; Tools/bench-replica runs it next to
    // Loro on the same file.
    .executableTarget(
      name: "ReplicaBench",
      dependencies: [
        "BenchmarkSupport", .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "ListJournal", package: "ListJournal"),
      ]),
    // One replica receiving one-commit batches that many others made concurrently, directly and
    // through a SyncClient (Tools/bench-receive).
    .executableTarget(
      name: "ReceiveBench",
      dependencies: [
        "BenchmarkSupport", .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "ListSync", package: "ListJournal"),
      ]),
    // What a journal's age costs an app: launch, memory, undo, time travel and bytes per commit
    // on journals of 10,000 to 10,000,000 commits, each measured in a fresh process
    // (Tools/bench-history-file).
    .executableTarget(
      name: "HistoryFileBench",
      dependencies: ["BenchmarkSupport", .product(name: "ListJournal", package: "ListJournal")]),
    // A driver for profilers (perf, callgrind): one diff workload in a loop.
    .executableTarget(
      name: "DiffProfile",
      dependencies: ["BenchmarkSupport", .product(name: "ListJournal", package: "ListJournal")]),
  ],
  swiftLanguageModes: [.v6]
)
