import Foundation
import Testing

/// How the manifest provides zstd, read from `swift package dump-package` (no resolution, no
/// network): an app on an Apple platform must never link a system library, and Linux CI must
/// never need facebook/zstd's package.
///
/// A Linux host evaluates the manifest's Linux branch only; LISTJOURNAL_BUNDLED_ZSTD=1 makes it
/// take the branch every other host takes (`zstdFromPackage`), so that is what the Apple-side
/// checks read.
@Suite struct PackageManifestTests {
  static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  @Test func appleBranchBuildsZstdFromItsPackageAndLinksNoSystemLibrary() throws {
    let manifest = try Self.dump(bundledZstd: true)
    let zstd = try #require(manifest.dependency(identity: "zstd"), "the package branch does not depend on facebook/zstd")
    #expect(zstd.url == "https://github.com/facebook/zstd")
    #expect(zstd.exactVersion != nil, "zstd is not pinned to a release: \(zstd.requirement)")
    #expect(!manifest.targets.contains { $0.name == "libzstd" }, "a target of this package shadows the package's libzstd")
    for product in manifest.libraryProducts {
      let reached = manifest.closure(of: product.targets)
      let system = reached.filter { $0.type == "system" }.map(\.name)
      #expect(system.isEmpty, "library product \(product.name) links system libraries \(system) on Apple platforms")
      for target in reached {
        for dependency in target.dependencies where dependency.package == "zstd" {
          #expect(dependency.name == "libzstd")
          #expect(dependency.isUnconditional, "\(target.name) depends on zstd's package only under a condition")
        }
      }
    }
    let journal = try #require(manifest.libraryProducts.first { $0.name == "ListJournal" })
    #expect(
      manifest.closure(of: journal.targets).contains { $0.dependencies.contains { $0.package == "zstd" && $0.name == "libzstd" } },
      "the ListJournal product does not reach zstd's libzstd")
  }

  @Test func linuxBranchLinksTheSystemLibraryAndNeedsNoZstdPackage() throws {
    let manifest = try Self.dump(bundledZstd: false)
    #expect(manifest.dependency(identity: "zstd") == nil, "the Linux branch resolves facebook/zstd (CI has no copy of it)")
    let system = try #require(manifest.targets.first { $0.name == "libzstd" })
    #expect(system.type == "system")
    #expect(system.pkgConfig == "libzstd")
    let journal = try #require(manifest.libraryProducts.first { $0.name == "ListJournal" })
    #expect(manifest.closure(of: journal.targets).contains { $0.name == "libzstd" })
  }

  /// The manifest as `swift package dump-package` evaluates it, with the switch set or unset.
  static func dump(bundledZstd: Bool) throws -> DumpedManifest {
    let scratch = TemporaryDirectory()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // A scratch path of its own: never wait on the lock of a build running in `.build`.
    process.arguments = ["swift", "package", "--package-path", root, "--scratch-path", scratch.path, "dump-package"]
    var environment = ProcessInfo.processInfo.environment
    environment["LISTJOURNAL_BUNDLED_ZSTD"] = bundledZstd ? "1" : nil
    process.environment = environment
    let errors = scratch.file("stderr")
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    try process.run()
    let json = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    try #require(process.terminationStatus == 0, "dump-package failed: \(message)")
    return try DumpedManifest(json: json)
  }
}

/// The parts of `dump-package`'s JSON these tests read.
struct DumpedManifest {
  struct Dependency {
    var identity: String
    var url: String?
    var requirement: [String: Any]
    var exactVersion: String? { (requirement["exact"] as? [String])?.first }
  }

  struct TargetDependency {
    /// A target or product name.
    var name: String
    /// The package of a product dependency (nil: this package).
    var package: String?
    var isUnconditional: Bool
  }

  struct Target {
    var name: String
    var type: String
    var pkgConfig: String?
    var dependencies: [TargetDependency]
  }

  struct Product {
    var name: String
    var targets: [String]
  }

  var dependencies: [Dependency] = []
  var targets: [Target] = []
  var libraryProducts: [Product] = []

  init(json: Data) throws {
    let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], "dump-package printed no object")
    for entry in root["dependencies"] as? [[String: Any]] ?? [] {
      guard let source = (entry["sourceControl"] as? [[String: Any]])?.first, let identity = source["identity"] as? String
      else { continue }
      let remote = ((source["location"] as? [String: Any])?["remote"] as? [[String: Any]])?.first
      dependencies.append(
        Dependency(
          identity: identity, url: remote?["urlString"] as? String,
          requirement: source["requirement"] as? [String: Any] ?? [:]))
    }
    for entry in root["targets"] as? [[String: Any]] ?? [] {
      var target = Target(
        name: entry["name"] as? String ?? "", type: entry["type"] as? String ?? "", pkgConfig: entry["pkgConfig"] as? String,
        dependencies: [])
      for dependency in entry["dependencies"] as? [[String: Any]] ?? [] {
        // byName/target: [name, condition]; product: [name, package, moduleAliases, condition].
        if let fields = (dependency["byName"] ?? dependency["target"]) as? [Any], let name = fields.first as? String {
          target.dependencies.append(TargetDependency(name: name, package: nil, isUnconditional: fields.last is NSNull))
        } else if let fields = dependency["product"] as? [Any], let name = fields.first as? String {
          target.dependencies.append(
            TargetDependency(name: name, package: fields[1] as? String, isUnconditional: fields.last is NSNull))
        }
      }
      targets.append(target)
    }
    for entry in root["products"] as? [[String: Any]] ?? [] {
      guard let type = entry["type"] as? [String: Any], type["library"] != nil else { continue }
      libraryProducts.append(Product(name: entry["name"] as? String ?? "", targets: entry["targets"] as? [String] ?? []))
    }
  }

  func dependency(identity: String) -> Dependency? { dependencies.first { $0.identity == identity } }

  /// `names` and every target of this package they depend on, transitively.
  func closure(of names: [String]) -> [Target] {
    var seen = Set<String>()
    var pending = names
    var reached: [Target] = []
    while let name = pending.popLast() {
      guard seen.insert(name).inserted, let target = targets.first(where: { $0.name == name }) else { continue }
      reached.append(target)
      pending += target.dependencies.filter { $0.package == nil }.map(\.name)
    }
    return reached
  }
}
