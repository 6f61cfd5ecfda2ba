// swift-tools-version:6.1
import PackageDescription

// The ListState benchmark runner: a small release-mode program (see Tools/bench).
let package = Package(
  name: "ListJournalBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "ListJournal", path: "../..")],
  targets: [
    .executableTarget(
      name: "ListStateBench",
      dependencies: [.product(name: "ListState", package: "ListJournal")])
  ],
  swiftLanguageModes: [.v6]
)
