import Foundation
import Testing

/// Runs the built `listjournal` binary, as a user would, and captures what it prints.
///
/// The binary is found next to the test bundle (the build products directory, for both
/// `swift test` and `swift build --build-tests` in a fresh clone), or at `LISTJOURNAL_BINARY`.
struct CLIRunner {
  struct Result: Equatable {
    var stdout: String
    var stderr: String
    var status: Int32
  }

  static let binary: URL? = {
    let fileManager = FileManager.default
    if let explicit = ProcessInfo.processInfo.environment["LISTJOURNAL_BINARY"] {
      return URL(fileURLWithPath: explicit)
    }
    var candidates: [URL] = []
    // The test runner lives in the build products directory (on macOS inside an .xctest bundle).
    for start in [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])].compactMap({ $0 }) {
      var directory = start.deletingLastPathComponent()
      for _ in 0..<5 {
        candidates.append(directory.appendingPathComponent("listjournal"))
        directory = directory.deletingLastPathComponent()
      }
    }
    for bundle in Bundle.allBundles {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("listjournal"))
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/listjournal"))
    return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
  }()

  /// The package's root directory, from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

  /// Runs `listjournal ARGUMENTS` with `stdin`, in `directory`.
  static func run(
    _ arguments: [String], stdin: String = "", in directory: URL, environment extra: [String: String] = [:]
  ) throws -> Result {
    let binary = try #require(binary, "the listjournal binary was not found next to the tests; build it with `swift build`")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["SOURCE_DATE_EPOCH"] = "1700000000"
    environment["NO_COLOR"] = "1"
    // Help is wrapped to the terminal's width: the same width everywhere.
    environment["COLUMNS"] = "80"
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let id = UUID().uuidString
    let inputURL = directory.appendingPathComponent(".stdin-\(id)")
    let outputURL = directory.appendingPathComponent(".stdout-\(id)")
    let errorURL = directory.appendingPathComponent(".stderr-\(id)")
    try stdin.write(to: inputURL, atomically: false, encoding: .utf8)
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    defer { for url in [inputURL, outputURL, errorURL] { try? FileManager.default.removeItem(at: url) } }
    let input = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    process.waitUntilExit()
    try? input.close()
    try? output.close()
    try? error.close()
    return Result(
      stdout: try String(contentsOf: outputURL, encoding: .utf8),
      stderr: try String(contentsOf: errorURL, encoding: .utf8),
      status: process.terminationStatus)
  }

  /// A fresh empty directory for one test's journals.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("listjournal-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
