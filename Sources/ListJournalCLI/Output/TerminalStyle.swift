#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ANSI styling that is on only when the stream is a terminal and `NO_COLOR` is unset
/// (https://no-color.org), so pipes and golden files never see escape codes.
///
/// ```swift
/// let style = TerminalStyle.forStandardOutput()
/// print(style.bold("Fruit"))
/// ```
struct TerminalStyle: Sendable {
  var isEnabled: Bool

  static let plain = TerminalStyle(isEnabled: false)

  static func forStandardOutput() -> TerminalStyle { forDescriptor(STDOUT_FILENO) }
  static func forStandardError() -> TerminalStyle { forDescriptor(STDERR_FILENO) }

  static func forDescriptor(_ descriptor: Int32) -> TerminalStyle {
    let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
    return TerminalStyle(isEnabled: isatty(descriptor) == 1 && !noColor)
  }

  private func wrap(_ text: String, _ code: String) -> String {
    isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func green(_ text: String) -> String { wrap(text, "32") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func blue(_ text: String) -> String { wrap(text, "34") }
}
