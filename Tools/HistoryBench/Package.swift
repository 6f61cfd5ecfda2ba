// swift-tools-version:6.0
import PackageDescription

// History engine benchmarks (release build): `Tools/bench-history`.
let package = Package(
  name: "HistoryBench",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "ListJournal", path: "../..")],
  targets: [
    .executableTarget(
      name: "HistoryBench",
      dependencies: [.product(name: "ListJournal", package: "ListJournal")],
      swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))])
  ],
  swiftLanguageModes: [.v6]
)
