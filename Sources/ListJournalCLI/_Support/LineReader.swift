#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor line by line, as input arrives: each complete line is handed over
/// as soon as it is in the buffer, and `beforeBlocking` runs before every `read(2)` that may
/// wait (nothing is ready to read), so `exec` fed through a pipe can flush output and acknowledge
/// commits in time.
///
/// Lines are UTF-8 bytes without the `\n` (a trailing `\r` is left for the tokenizer, which
/// treats it as a space). The final line may lack a newline.
///
/// ```swift
/// let reader = LineReader(descriptor: STDIN_FILENO)
/// try reader.forEachLine(beforeBlocking: { out.flush() }) { line, number in … return true }
/// ```
///
/// - Complexity: O(input size); one `memchr` scan per line, no per-line allocation.
struct LineReader {
  let descriptor: Int32
  var chunkSize = 256 * 1024

  struct ReadError: Error, CustomStringConvertible {
    var code: Int32
    var description: String { "cannot read input: \(String(cString: strerror(code)))" }
  }

  /// Whether a `read(2)` of `descriptor` would return at once (data, end of input or an error
  /// waiting): always for a regular file, for a pipe or terminal only when input is there.
  /// `beforeBlocking` runs only otherwise — a file or a full pipe is read straight through
  /// (flushing before each chunk cost `exec` a wait for its background writer every 256 KiB).
  static func hasInputReady(_ descriptor: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }

  /// Calls `body` with each line and its 1-based number until input ends or `body` returns false.
  func forEachLine(
    beforeBlocking: () -> Void,
    _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Bool
  ) throws {
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    var start = 0  // first unconsumed byte
    var end = 0  // one past the last valid byte
    var lineNumber = 0
    while true {
      // Hand over every complete line already buffered.
      let keepGoing: Bool = try buffer.withUnsafeBufferPointer { all in
        let base = all.baseAddress!
        while start < end {
          guard let newline = memchr(base + start, 0x0A, end - start) else { break }
          let lineEnd = UnsafePointer<UInt8>(newline.assumingMemoryBound(to: UInt8.self)) - base
          lineNumber += 1
          let line = UnsafeBufferPointer(start: base + start, count: lineEnd - start)
          start = lineEnd + 1
          if try !body(line, lineNumber) { return false }
        }
        return true
      }
      if !keepGoing { return }
      // Keep the partial line at the front; grow when one line fills the buffer.
      if start > 0 {
        if start < end { buffer.withUnsafeMutableBytes { raw in _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start) } }
        end -= start
        start = 0
      }
      if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
      if !Self.hasInputReady(descriptor) { beforeBlocking() }
      let count = buffer.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress! + end, raw.count - end) }
      if count < 0 {
        if errno == EINTR { continue }
        throw ReadError(code: errno)
      }
      if count == 0 {
        if end > start {
          lineNumber += 1
          _ = try buffer.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[start..<end]), lineNumber)
          }
        }
        return
      }
      end += count
    }
  }
}
