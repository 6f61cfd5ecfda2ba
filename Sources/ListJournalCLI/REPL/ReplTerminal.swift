import CEdit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the terminal the REPL and `help` print to.
///
/// ```swift
/// ListCommandHelp.overview(width: ReplTerminal.width())
/// ```
enum ReplTerminal {
  /// The width of the terminal on stdout, else `COLUMNS`, else 80.
  static func width() -> Int {
    let columns = Int(listjournal_terminal_width(STDOUT_FILENO))
    if columns > 0 { return columns }
    if let text = getenv("COLUMNS"), let value = Int(String(cString: text)), value > 0 { return value }
    return 80
  }
}
