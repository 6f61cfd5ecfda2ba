// swift-tools-version:6.0
import PackageDescription

// Layering (each target depends only on the ones above it):
//   ListState → ListHistory (+CMemoryHints) → JournalFormat (+CZstd) → ListDiff → ListJournal (umbrella)
//   → ListJournalUIKit (Apple platforms only) / ListJournalCLI (`listjournal`, +CEdit)
// Speed without build flags: the generic engine (ListState, ListHistory, ListDiff, ListJournal)
// is `@inlinable` throughout, so an app's release build specializes it for the app's own element
// types, as the CLI's build does for its own; no unsafe flag is needed or offered.
// Invariant checks (`_checkInvariants()`, O(n) after every mutation) are compiled only when the
// build defines LISTJOURNAL_INVARIANTS, which this package's own test command does
// (`Tools/test`: `swift build -Xswiftc -DLISTJOURNAL_INVARIANTS`). An app's debug build never does.

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
      dependencies: [.product(name: "HashTreeCollections", package: "swift-collections")]),
    // Cache prefetch hints for a replay's fold (C: Swift cannot spell them).
    .target(name: "CMemoryHints"),
    .target(name: "ListHistory", dependencies: ["ListState", "CMemoryHints"]),
    .systemLibrary(
      name: "CZstd", pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    .target(name: "JournalFormat", dependencies: ["CZstd", "ListHistory"]),
    // Crash-test writer/checker, benchmarks and fuzz-seed generator for the journal (Tools/crash-test,
    // Tools/bench-journal, Tools/fuzz). Not a product.
    .executableTarget(name: "JournalTool", dependencies: ["JournalFormat", "ListJournal"], path: "Tools/JournalTool"),
    .target(name: "ListDiff", dependencies: ["ListState", "ListHistory"]),
    .target(
      name: "ListJournal", dependencies: ["ListState", "ListHistory", "JournalFormat", "ListDiff"]),
    .target(name: "ListJournalUIKit", dependencies: ["ListJournal"]),
    .systemLibrary(
      name: "CEdit", pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
    .executableTarget(
      name: "ListJournalCLI",
      // The modules it imports directly too, so a layout change in one of them rebuilds the CLI.
      dependencies: [
        "ListJournal", "ListState", "ListHistory", "JournalFormat", "ListDiff", "CEdit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    .target(
      // ListState directly too: the incremental build then tracks its module (through the
      // umbrella's re-export alone, a ListState layout change left TestSupport stale).
      name: "TestSupport", dependencies: ["JournalFormat", "ListJournal", "ListState"], path: "Tests/TestSupport"),
    .testTarget(name: "ListStateTests", dependencies: ["ListState", "TestSupport"]),
    .testTarget(name: "ListHistoryTests", dependencies: ["ListHistory", "TestSupport"]),
    .testTarget(name: "JournalFormatTests", dependencies: ["JournalFormat", "TestSupport"]),
    .testTarget(name: "ListDiffTests", dependencies: ["ListDiff", "TestSupport"]),
    .testTarget(
      name: "ListJournalTests", dependencies: ["ListJournal", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "ListJournalCLITests", dependencies: ["ListJournalCLI", "ListJournal", "TestSupport"],
      exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
