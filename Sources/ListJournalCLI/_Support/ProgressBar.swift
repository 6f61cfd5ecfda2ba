#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar redrawn in place (`\r`) on a terminal, at most `maximumRate` times
/// per second, so a replay of millions of records spends its time replaying, not drawing.
///
/// ```
/// replaying [###########-------------------]  37%  370000/1000000 records
/// ```
///
/// ```swift
/// let bar = ProgressBar.onStandardError(label: "replaying")   // nil unless stderr is a terminal
/// bar?.update(done: 370_000, total: 1_000_000)
/// bar?.finish()   // erases the line
/// ```
///
/// - Complexity: `update` is O(1); it reads the clock once every 256 calls.
final class ProgressBar {
  let label: String
  let width: Int
  private let write: (String) -> Void
  private let clock: () -> Double
  private let minimumInterval: Double
  private var lastDrawn: Double?
  private var calls = 0
  /// How many times the bar was drawn (for tests).
  private(set) var drawCount = 0

  init(
    label: String, width: Int = 30, maximumRate: Double = 10, clock: @escaping () -> Double = monotonicSeconds,
    write: @escaping (String) -> Void
  ) {
    self.label = label
    self.width = width
    self.minimumInterval = 1 / maximumRate
    self.clock = clock
    self.write = write
  }

  /// A bar on stderr, or nil when stderr is not a terminal (nothing is drawn into logs and pipes).
  static func onStandardError(label: String) -> ProgressBar? {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    return ProgressBar(label: label) { OutputStream.standardError.write($0) }
  }

  /// Redraws the bar when at least 1/maximumRate s passed since the last drawing (always for
  /// the first and the last step).
  func update(done: Int, total: Int) {
    calls += 1
    let last = done >= total
    guard last || lastDrawn == nil || calls & 255 == 0 else { return }
    let now = clock()
    if !last, let lastDrawn, now - lastDrawn < minimumInterval { return }
    lastDrawn = now
    drawCount += 1
    write("\r" + Self.line(label: label, done: done, total: total, width: width))
  }

  /// Erases the bar's line.
  func finish() {
    guard drawCount > 0 else { return }
    write("\r\u{1B}[2K")
  }

  /// `LABEL [####------]  40%  4/10 records`.
  static func line(label: String, done: Int, total: Int, width: Int) -> String {
    let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
    let filled = Int(fraction * Double(width))
    let percent = Int(fraction * 100)
    let padded = String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0) + "\(percent)%"
    return "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(padded)  \(done)/\(total) records"
  }
}
