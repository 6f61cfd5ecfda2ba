import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `listjournal-server` executable run as a child process, as an operator runs it:
/// started on a free port, killed with SIGKILL or stopped with SIGTERM.
///
/// The executable is found next to the test runner (the build products folder) or at
/// `LISTJOURNAL_SERVER_BINARY`.
final class ServerProcess: @unchecked Sendable {
  let process: Process
  let port: Int
  let logURL: URL

  static let binary: URL? = {
    if let explicit = ProcessInfo.processInfo.environment["LISTJOURNAL_SERVER_BINARY"] {
      return URL(fileURLWithPath: explicit)
    }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent("listjournal-server")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/listjournal-server")
    return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
  }()

  private init(process: Process, port: Int, logURL: URL) {
    self.process = process
    self.port = port
    self.logURL = logURL
  }

  /// Starts `listjournal-server serve --port PORT --data DATA …` and waits for `listening on`.
  static func start(data: URL, port: Int = 0, arguments: [String] = []) throws -> ServerProcess {
    let binary = try #require(binary, "listjournal-server was not built; run Server/Tools/test")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["serve", "--port", "\(port)", "--data", data.path, "--log-level", "notice"] + arguments
    let output = Pipe()
    process.standardOutput = output
    let logURL = data.deletingLastPathComponent().appendingPathComponent("server-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: logURL)
    try process.run()
    // The first stdout line names the bound port; anything after it is drained and dropped.
    let reader = output.fileHandleForReading
    var text = ""
    let deadline = Date().addingTimeInterval(60)
    while !text.contains("\n") {
      let chunk = readChunk(reader.fileDescriptor)
      if chunk.isEmpty {
        guard process.isRunning, Date() < deadline else {
          let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
          Issue.record("listjournal-server did not start: \(log)")
          throw StartError.didNotStart(log)
        }
        continue
      }
      text += String(decoding: chunk, as: UTF8.self)
    }
    let line = text.split(separator: "\n").first.map(String.init) ?? ""
    guard line.hasPrefix("listening on "), let bound = line.split(separator: ":").last.flatMap({ Int($0) }) else {
      throw StartError.didNotStart(line)
    }
    Thread.detachNewThread { while !readChunk(reader.fileDescriptor).isEmpty {} }
    return ServerProcess(process: process, port: bound, logURL: logURL)
  }

  var baseURL: String { "127.0.0.1:\(port)" }

  /// SIGKILL: no shutdown code runs.
  func kill9() {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// SIGTERM, then waits (at most `timeout` seconds) and returns the exit status, or `nil` if
  /// the process had to be killed.
  func terminate(timeout: Double = 30) -> Int32? {
    kill(process.processIdentifier, SIGTERM)
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    guard !process.isRunning else {
      kill9()
      return nil
    }
    return process.terminationStatus
  }

  var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

  enum StartError: Error {
    case didNotStart(String)
  }
}

/// What one `read(2)` returns (empty at the end), retried on EINTR: `FileHandle.availableData`
/// traps when a signal interrupts the read.
func readChunk(_ descriptor: Int32) -> [UInt8] {
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count >= 0 { return Array(buffer[0..<count]) }
    if errno != EINTR { return [] }
  }
}
