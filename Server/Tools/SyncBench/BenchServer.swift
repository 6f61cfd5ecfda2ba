import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `listjournal-server serve` as a child process on a free loopback port.
final class BenchServer {
  let process: Process
  let port: Int

  init(binary: String, arguments: [String]) throws {
    process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["serve", "--port", "0", "--log-level", "warning"] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let reader = output.fileHandleForReading
    var text = ""
    while !text.contains("\n") {
      let chunk = readChunk(reader.fileDescriptor)
      guard !chunk.isEmpty else { throw BenchFailure("listjournal-server exited before listening") }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let line = text.split(separator: "\n").first, let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
      throw BenchFailure("unexpected first line from listjournal-server: \(text)")
    }
    self.port = port
    Thread.detachNewThread { while !readChunk(reader.fileDescriptor).isEmpty {} }
  }

  /// User + system CPU seconds the server has used so far (from /proc; 0 where there is none).
  var cpuSeconds: Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // Fields after the name: state is the first; utime and stime are the 12th and 13th.
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  deinit {
    // A benchmark that failed half-way leaves no server behind.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  /// SIGTERM; returns the exit status.
  func stop() -> Int32 {
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    return process.terminationStatus
  }
}

/// A benchmark that cannot run, with why.
struct BenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
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
