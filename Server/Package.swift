// swift-tools-version:6.0
import PackageDescription

// The sync server: Hummingbird glue around ListSync's platform-free core (the root package), kept
// in its own package so that an app depending on ListJournal never builds a web server.
//   ListSyncHummingbird        routes, the WebSocket upgrade, health, logs and metrics -> SyncHub
//   ListSyncWebSocketClient    a SyncTransport over HummingbirdWSClient (Linux clients, tests, bench)
//   ListJournalServer          the `listjournal-server` executable (`serve`)
//   ListSyncPostgres           `PostgresSyncStorage`: lists and commits in PostgreSQL tables,
//                              shared by several server instances (postgres-nio)
//   SyncStorageConformance     the `SyncStorage` contract as checks any storage can be run through
//   SyncBench                  Tools/bench-sync: many clients on one list over real WebSockets
//   PostgresStorageBench       appends per second through the PostgreSQL storage alone

let package = Package(
  name: "ListJournalServer",
  // Synchronization.Mutex needs macOS 15; a server has no older floor to keep.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "ListSyncHummingbird", targets: ["ListSyncHummingbird"]),
    .library(name: "ListSyncWebSocketClient", targets: ["ListSyncWebSocketClient"]),
    .library(name: "ListSyncPostgres", targets: ["ListSyncPostgres"]),
    .executable(name: "listjournal-server", targets: ["ListJournalServer"]),
  ],
  dependencies: [
    .package(name: "ListJournal", path: ".."),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
  ],
  targets: [
    .target(
      name: "ListSyncHummingbird",
      dependencies: [
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    .target(
      name: "ListSyncWebSocketClient",
      dependencies: [
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "ListJournalServer",
      dependencies: [
        "ListSyncHummingbird", "ListSyncPostgres",
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]),
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
    // The mixed workload the end-to-end tests and the benchmark edit lists with.
    .target(
      name: "SyncWorkload",
      dependencies: [
        .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "ListState", package: "ListJournal"),
      ]),
    .executableTarget(
      name: "SyncBench",
      dependencies: [
        "ListSyncWebSocketClient", "SyncWorkload",
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "ListState", package: "ListJournal"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tools/SyncBench"),

    .testTarget(
      name: "ListSyncServerTests",
      dependencies: [
        "ListSyncHummingbird", "ListSyncWebSocketClient", "SyncWorkload",
        .product(name: "ListSync", package: "ListJournal"),
        .product(name: "ListReplica", package: "ListJournal"),
        .product(name: "ListState", package: "ListJournal"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
