#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer to a file descriptor: `exec` prints through it so a million lines cost a
/// handful of `write(2)` calls, and it flushes explicitly before blocking on input (streaming).
///
/// ```swift
/// let out = OutputStream.standardOutput
/// out.write("committed 3\n")
/// out.flush()
/// ```
final class OutputStream: @unchecked Sendable {
  // @unchecked: used from one thread at a time (the command's), never shared concurrently.
  let descriptor: Int32
  private var buffer: [UInt8] = []
  private let capacity: Int

  /// Whether flushing first erases a progress bar on the same terminal (stdout on a terminal:
  /// the bar is on stderr, which shows on the same screen).
  private let clearsProgressBar: Bool

  init(descriptor: Int32, capacity: Int = 64 * 1024) {
    self.descriptor = descriptor
    self.capacity = capacity
    clearsProgressBar = descriptor == STDOUT_FILENO && isatty(descriptor) == 1
    buffer.reserveCapacity(capacity)
  }

  static let standardOutput = OutputStream(descriptor: STDOUT_FILENO)
  static let standardError = OutputStream(descriptor: STDERR_FILENO, capacity: 0)

  func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in buffer.append(contentsOf: bytes) }
    if buffer.count >= capacity { flush() }
  }

  /// Writes UTF-8 bytes (a large text rendered as bytes, see `SnapshotRenderer.textBytes`).
  func write(bytes: [UInt8]) {
    flush()
    if clearsProgressBar && !bytes.isEmpty { ProgressBar.active?.clear() }
    bytes.withUnsafeBytes { writeAll($0) }
  }

  func writeLine(_ text: String) {
    write(text)
    write("\n")
  }

  func flush() {
    if clearsProgressBar && !buffer.isEmpty { ProgressBar.active?.clear() }
    buffer.withUnsafeBytes { writeAll($0) }
    buffer.removeAll(keepingCapacity: true)
  }

  private func writeAll(_ raw: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < raw.count {
      let written = systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        break  // EPIPE and friends: the reader is gone; drop the output.
      }
      offset += written
    }
  }
}

/// Prints `error: …` on stderr, after flushing stdout so the two streams interleave in order.
func printError(_ message: String) {
  ProgressBar.active?.clear()
  OutputStream.standardOutput.flush()
  // Red on a terminal (never with NO_COLOR, on a pipe or in a file).
  let style = TerminalStyle.forStandardError()
  OutputStream.standardError.writeLine("\(style.bold(style.red("error:"))) \(message)")
  OutputStream.standardError.flush()
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
  return Glibc.write(descriptor, pointer, count)
  #else
  return Darwin.write(descriptor, pointer, count)
  #endif
}

/// Prints `warning: …` on stderr.
func printWarning(_ message: String) {
  ProgressBar.active?.clear()
  OutputStream.standardOutput.flush()
  OutputStream.standardError.writeLine("warning: \(message)")
  OutputStream.standardError.flush()
}
