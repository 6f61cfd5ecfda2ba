// swift-tools-version:6.0
import PackageDescription

// The sync server: Hummingbird glue, the executable and storages with heavy dependencies live in
// this nested package, so the root package (the library an app imports) stays free of them.
//   ListSyncPostgres          `PostgresSyncStorage`: lists and commits in PostgreSQL tables,
//                             shared by several server instances (postgres-nio)
//   SyncStorageConformance    the `SyncStorage` contract as checks any storage can be run through
let package = Package(
  name: "ListJournalServer",
  // Synchronization.Mutex needs macOS 15; a server has no older floor to keep.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "ListSyncPostgres", targets: ["ListSyncPostgres"])
  ],
  dependencies: [
    .package(name: "ListJournal", path: ".."),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    .target(
      name: "ListSyncPostgres",
      dependencies: [
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),
    .target(
      name: "SyncStorageConformance",
      dependencies: [
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "ListReplica", package: "ListJournal"),
      ],
      path: "Tests/SyncStorageConformance"),
    // Appends per second through the PostgreSQL storage alone (release build).
    .executableTarget(
      name: "PostgresStorageBench",
      dependencies: [
        "ListSyncPostgres",
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/PostgresStorageBench"),
    .testTarget(
      name: "ListSyncPostgresTests",
      dependencies: [
        "ListSyncPostgres", "SyncStorageConformance",
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
