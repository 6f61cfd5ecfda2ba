// swift-tools-version:6.1
import PackageDescription

// The ListState benchmark runner: a small release-mode program (see Tools/bench).
let package = Package(
  name: "ListJournalBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "ListJournal", path: "../.."),
    // Only for a reference row: the persistent hash map the model's identifier index resembles.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    .executableTarget(
      name: "ListStateBench",
      dependencies: [
        .product(name: "ListState", package: "ListJournal"),
        .product(name: "HashTreeCollections", package: "swift-collections"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
