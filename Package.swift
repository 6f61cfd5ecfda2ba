// swift-tools-version:6.0
import PackageDescription

// Layers (each target imports only the ones before it; the dependencies below are the imports):
//   ListLocking                     a lock over os_unfair_lock / pthread_mutex (Mutex needs iOS 18)
//   ListState                       snapshots: persistent storage, operations, queries, typed errors
//   ListHistory (+CMemoryHints)     events, transactions, the undo tree, the codec, the store
//   JournalFormat (+libzstd)        the journal file's bytes: chunks, records, recovery, compaction
//   ListDiff                        changesets between versions and snapshots
//   ListJournal                     the umbrella an app imports: journal-backed stores
//   ListReplica                     one list on several devices: replicas, exchange, merge rules
//   ListSync                        sync through a server: protocol, client, the server's core and
//                                   its journal-file storage (the HTTP server is in Server/)
//   ListPresenter                   what a list UI shows: the presenter core, gestures, the system's
//                                   undo, an observable model for SwiftUI (platform-free; Linux-tested)
//   ListJournalUIKit                UIKit/AppKit glue (compiled only where they exist)
//   ListJournalCLI (+CEdit)         the `listjournal` executable
//   JournalFormatTesting            test doubles for the file layer (an in-memory file system)
//
// Speed without build flags: the generic engine (ListState, ListHistory, ListDiff, ListJournal)
// is `@inlinable` throughout, so an app's release build specializes it for the app's own element
// types, as the CLI's build does for its own; no unsafe flag is needed or offered.
// Invariant checks (`_checkInvariants()`, O(n) after every mutation) are compiled only when the
// build defines LISTJOURNAL_INVARIANTS, which this package's own test command does
// (`Tools/test`: `swift build -Xswiftc -DLISTJOURNAL_INVARIANTS`). An app's debug build never does.

// zstd. Apple platforms ship no libzstd, so there it is built from facebook/zstd's own package
// (an app adds nothing but this package); Linux links the system's (libzstd-dev), through a
// module map that gives it the package's module name, so Swift imports `libzstd` either way.
// The package is declared only when it is used: a Linux build never resolves it.
// LISTJOURNAL_BUNDLED_ZSTD=1 takes the package on Linux too (to check that branch here, or to
// build without libzstd-dev).
#if os(Linux)
let zstdFromPackage = Context.environment["LISTJOURNAL_BUNDLED_ZSTD"] == "1"
#else
let zstdFromPackage = true
#endif
// Pinned: the product name `libzstd` is this release's (CONTRIBUTING: how the branch is checked).
let zstdPackage: [Package.Dependency] =
  zstdFromPackage ? [.package(url: "https://github.com/facebook/zstd", exact: "1.5.6")] : []
let zstdSystemLibrary: [Target] =
  zstdFromPackage ? [] : [.systemLibrary(name: "libzstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])])]
let libzstd: Target.Dependency = zstdFromPackage ? .product(name: "libzstd", package: "zstd") : "libzstd"

let package = Package(
  name: "ListJournal",
  // The floor is Observation's (ListPresenter's SwiftUI model); locks come from ListLocking.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "ListJournal", targets: ["ListJournal"]),
    // The core model alone.
    .library(name: "ListState", targets: ["ListState"]),
    // What an app's list UI shows, on any platform: the presenter, undo bridge and SwiftUI model.
    .library(name: "ListPresenter", targets: ["ListPresenter"]),
    // One list edited on several devices: replicas, exchange, merge, undo of one's own edits.
    .library(name: "ListReplica", targets: ["ListReplica"]),
    // Sync through a server: the client, the wire protocol and the server's platform-free core.
    .library(name: "ListSync", targets: ["ListSync"]),
    .library(name: "ListJournalUIKit", targets: ["ListJournalUIKit"]),
    // For an app's tests: a file system that fails and crashes on request.
    .library(name: "JournalFormatTesting", targets: ["JournalFormatTesting"]),
    .executable(name: "listjournal", targets: ["ListJournalCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ] + zstdPackage,
  targets: [
    .target(name: "ListState"),
    .target(name: "ListLocking"),
    // Cache prefetch and page population hints for a replay (C: Swift cannot spell them).
    .target(name: "CMemoryHints"),
    .target(name: "ListHistory", dependencies: ["ListState", "CMemoryHints", "ListLocking"]),
    // CRC-32C with the CPU's instruction (C: Swift cannot spell it); a table fallback in Swift.
    .target(name: "CChecksum"),
    .target(name: "JournalFormat", dependencies: [libzstd, "ListLocking", "CChecksum"]),
    .target(name: "JournalFormatTesting", dependencies: ["JournalFormat", "ListLocking"]),
    .target(name: "ListDiff", dependencies: ["ListState", "ListHistory"]),
    .target(name: "ListJournal", dependencies: ["ListState", "ListHistory", "JournalFormat", "ListDiff", "ListLocking"]),
    .target(
      name: "ListReplica", dependencies: ["ListState", "ListHistory", "JournalFormat", "ListDiff", "ListLocking", libzstd]),
    .target(name: "ListSync", dependencies: ["ListState", "ListHistory", "JournalFormat", "ListReplica", "ListLocking"]),
    .target(name: "ListPresenter", dependencies: ["ListState", "ListHistory", "ListDiff", "ListLocking"]),
    .target(name: "ListJournalUIKit", dependencies: ["ListJournal", "ListPresenter"]),
    .systemLibrary(
      name: "CEdit", pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
    .executableTarget(
      name: "ListJournalCLI",
      dependencies: [
        "ListJournal", "ListReplica", "ListState", "ListHistory", "JournalFormat", "ListDiff", "CEdit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // Crash-test writer/checker, benchmarks and fuzz-seed generator for the journal (Tools/crash-test,
    // Tools/bench-journal, Tools/fuzz): it uses package-level APIs, so it lives here. Not a product.
    .executableTarget(
      name: "JournalTool", dependencies: [libzstd, "JournalFormat", "ListJournal", "ListReplica"],
      path: "Tools/JournalTool"),

    .target(
      name: "TestSupport", dependencies: ["ListState", "ListHistory", "JournalFormat", "ListDiff"],
      path: "Tests/TestSupport"),
    .testTarget(name: "ListStateTests", dependencies: ["ListState", "TestSupport"]),
    .testTarget(name: "ListLockingTests", dependencies: ["ListLocking"]),
    .testTarget(name: "ListHistoryTests", dependencies: ["ListHistory", "ListState", "ListLocking", "TestSupport"]),
    .testTarget(name: "JournalFormatTests", dependencies: ["JournalFormat", "JournalFormatTesting", "TestSupport"]),
    .testTarget(name: "ListDiffTests", dependencies: ["ListDiff", "ListHistory", "ListState", "ListLocking", "TestSupport"]),
    .testTarget(
      name: "ListReplicaTests",
      dependencies: ["ListReplica", "ListDiff", "ListHistory", "ListState", "JournalFormat", "JournalFormatTesting", "TestSupport"]),
    .testTarget(
      name: "ListSyncTests",
      dependencies: [
        "ListSync", "ListReplica", "ListHistory", "ListState", "JournalFormat", "JournalFormatTesting", "ListLocking", "TestSupport",
      ]),
    .testTarget(
      name: "ListPresenterTests",
      dependencies: ["ListPresenter", "ListJournal", "ListDiff", "ListHistory", "ListState", "TestSupport"]),
    .testTarget(
      name: "ListJournalTests", dependencies: ["ListJournal", "JournalFormatTesting", "ListLocking", "TestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "ListJournalCLITests",
      dependencies: ["ListJournalCLI", "ListJournal", "ListReplica", "ListState", "TestSupport"],
      exclude: ["Golden"]),
  ] + zstdSystemLibrary,
  swiftLanguageModes: [.v6]
)
