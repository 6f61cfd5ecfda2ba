// swift-tools-version:6.0
import PackageDescription

// Benchmarks for ListDiff (issue 5). Run with ../bench-diff (release build).
let package = Package(
  name: "DiffBench",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "ListJournal", path: "../..")],
  targets: [
    .executableTarget(
      name: "DiffBench",
      dependencies: [.product(name: "ListJournal", package: "ListJournal")]),
    // A driver for profilers (perf, callgrind): one workload in a loop, built in linear time.
    .executableTarget(
      name: "DiffProfile",
      dependencies: [.product(name: "ListJournal", package: "ListJournal")]),
  ],
  swiftLanguageModes: [.v6]
)
