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
/// Every command that can run for more than a second draws one on stderr while it works
/// (`replay`, `verify`, `export`, `import`, `compact`, opening a journal for `exec` or `repl`,
/// running a script file, and a read that has to replay the journal); never into a pipe or a
/// file. With `NO_COLOR` set the bar writes no escape sequence at all: it is erased with spaces.
/// While a bar is on the line, ``printError(_:)`` and ``printWarning(_:)`` erase it first (it
/// comes back with the next step).
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
  let unit: String
  let width: Int
  /// Whether the line is erased with an escape sequence (else with spaces).
  let erasesWithEscape: Bool
  private let write: (String) -> Void
  private let clock: () -> Double
  private let minimumInterval: Double
  /// No drawing before this time (a quick job shows no bar at all).
  private let firstDrawing: Double
  private var lastDrawn: Double?
  private var calls = 0
  /// The length of the line drawn last, 0 once erased.
  private var drawnLength = 0
  /// How many times the bar was drawn (for tests).
  private(set) var drawCount = 0

  /// The bar drawn on stderr now, if any: printing an error or a warning erases it first.
  nonisolated(unsafe) static weak var active: ProgressBar?

  init(
    label: String, unit: String = "records", width: Int = 30, maximumRate: Double = 10, erasesWithEscape: Bool = true,
    showingAfter delay: Double = 0, clock: @escaping () -> Double = monotonicSeconds, write: @escaping (String) -> Void
  ) {
    self.label = label
    self.unit = unit
    self.width = width
    self.minimumInterval = 1 / maximumRate
    self.firstDrawing = delay > 0 ? clock() + delay : -Double.infinity
    self.erasesWithEscape = erasesWithEscape
    self.clock = clock
    self.write = write
  }

  /// A bar on stderr, or nil when stderr is not a terminal (nothing is drawn into logs and
  /// pipes). `NO_COLOR` (https://no-color.org) keeps it free of escape sequences. With a
  /// `delay` it shows only once that many seconds have passed, so a quick job does not flash one.
  static func onStandardError(label: String, unit: String = "records", showingAfter delay: Double = 0) -> ProgressBar? {
    guard isatty(STDERR_FILENO) == 1 else { return nil }
    let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
    let bar = ProgressBar(label: label, unit: unit, erasesWithEscape: !noColor, showingAfter: delay) {
      OutputStream.standardError.write($0)
    }
    active = bar
    return bar
  }

  /// Redraws the bar when at least 1/maximumRate s passed since the last drawing (always for
  /// the first and the last step).
  func update(done: Int, total: Int) {
    calls += 1
    let last = done >= total
    guard last || lastDrawn == nil || calls & 255 == 0 else { return }
    let now = clock()
    if now < firstDrawing { return }
    if !last, let lastDrawn, now - lastDrawn < minimumInterval { return }
    lastDrawn = now
    drawCount += 1
    let line = Self.line(label: label, done: done, total: total, width: width, unit: unit)
    // Without escapes a shorter line would leave the end of the longer one standing.
    let padding = erasesWithEscape ? "" : String(repeating: " ", count: max(0, drawnLength - line.count))
    drawnLength = line.count
    write("\r" + line + padding)
  }

  /// Erases the bar's line (it is drawn again by the next step).
  func clear() {
    guard drawnLength > 0 else { return }
    write(erasesWithEscape ? "\r\u{1B}[2K" : "\r" + String(repeating: " ", count: drawnLength) + "\r")
    drawnLength = 0
    lastDrawn = nil
  }

  /// Erases the bar's line: the work is done.
  func finish() {
    clear()
    if Self.active === self { Self.active = nil }
  }

  /// `LABEL [####------]  40%  4/10 records`.
  static func line(label: String, done: Int, total: Int, width: Int, unit: String = "records") -> String {
    let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
    let filled = Int(fraction * Double(width))
    let percent = Int(fraction * 100)
    let padded = String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0) + "\(percent)%"
    return "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(padded)  \(done)/\(total) \(unit)"
  }
}
