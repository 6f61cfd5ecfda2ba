// swift-tools-version:6.0
import PackageDescription

// Layering (each target depends only on the ones above it):
//   ListState → ListHistory (+CMemoryHints) → JournalFormat (+CZstd) → ListDiff → ListJournal (umbrella)
//   → ListJournalUIKit (Apple platforms only) / ListJournalCLI (`listjournal`, +CEdit)
// Opt-in full cross-module optimization for release builds of this package as the root (the
// benchmark and CLI scripts in Tools/ set LISTJOURNAL_CROSS_MODULE_OPTIMIZATION=1). It lets
// clients specialize the store and codec for their element types; it is an unsafe flag, which
// SwiftPM refuses in a package fetched by URL, so an app's build never sees it: there the
// `@inlinable` hot paths carry the specialization (see Tools/Benchmarks/README.md).
let crossModuleOptimization: [SwiftSetting] =
  Context.environment["LISTJOURNAL_CROSS_MODULE_OPTIMIZATION"] == "1"
  ? [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))] : []

let strictSettings: [SwiftSetting] = [
  // `_checkInvariants()` is real only when this flag is set; tests build with it (see Tools/test).
  .define("LISTJOURNAL_INVARIANTS", .when(configuration: .debug)),
] + crossModuleOptimization

let package = Package(
  name: "ListJournal",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ListJournal", targets: ["ListJournal"]),
    // The core model alone (the benchmarks package depends on just this).
    .library(name: "ListState", targets: ["ListState"]),
    .library(name: "ListJournalUIKit", targets: ["ListJournalUIKit"]),
    .executable(name: "listjournal", targets: ["ListJournalCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
  ],
  targets: [
    .target(
      name: "ListState",
      dependencies: [.product(name: "HashTreeCollections", package: "swift-collections")],
      swiftSettings: strictSettings),
    // Cache prefetch hints for a replay's fold (C: Swift cannot spell them).
    .target(name: "CMemoryHints"),
    .target(name: "ListHistory", dependencies: ["ListState", "CMemoryHints"], swiftSettings: strictSettings),
    .systemLibrary(
      name: "CZstd", pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    .target(name: "JournalFormat", dependencies: ["CZstd", "ListHistory"], swiftSettings: strictSettings),
    // Crash-test writer/checker, benchmarks and fuzz-seed generator for the journal (Tools/crash-test,
    // Tools/bench-journal, Tools/fuzz). Not a product.
    .executableTarget(name: "JournalTool", dependencies: ["JournalFormat", "ListJournal"], path: "Tools/JournalTool"),
    .target(name: "ListDiff", dependencies: ["ListState", "ListHistory"], swiftSettings: strictSettings),
    .target(
      name: "ListJournal", dependencies: ["ListState", "ListHistory", "JournalFormat", "ListDiff"],
      swiftSettings: strictSettings),
    .target(name: "ListJournalUIKit", dependencies: ["ListJournal"], swiftSettings: strictSettings),
    .systemLibrary(
      name: "CEdit", pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
    .executableTarget(
      name: "ListJournalCLI",
      // The modules it imports directly too, so a layout change in one of them rebuilds the CLI.
      dependencies: [
        "ListJournal", "ListState", "ListHistory", "JournalFormat", "ListDiff", "CEdit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strictSettings),

    .target(
      // ListState directly too: the incremental build then tracks its module (through the
      // umbrella's re-export alone, a ListState layout change left TestSupport stale).
      name: "TestSupport", dependencies: ["JournalFormat", "ListJournal", "ListState"], path: "Tests/TestSupport",
      swiftSettings: strictSettings),
    .testTarget(name: "ListStateTests", dependencies: ["ListState", "TestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ListHistoryTests", dependencies: ["ListHistory", "TestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "JournalFormatTests", dependencies: ["JournalFormat", "TestSupport"], swiftSettings: strictSettings),
    .testTarget(name: "ListDiffTests", dependencies: ["ListDiff", "TestSupport"], swiftSettings: strictSettings),
    .testTarget(
      name: "ListJournalTests", dependencies: ["ListJournal", "TestSupport"],
      exclude: ["Fixtures"], swiftSettings: strictSettings),
    .testTarget(
      name: "ListJournalCLITests", dependencies: ["ListJournalCLI", "ListJournal", "TestSupport"],
      exclude: ["Golden"],
      swiftSettings: strictSettings),
  ],
  swiftLanguageModes: [.v6]
)
