#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the REPL keeps its history between sessions, and how many lines it keeps.
///
/// Linux: `$XDG_STATE_HOME/listjournal/history`, else `~/.local/state/listjournal/history`;
/// macOS: `~/Library/Application Support/listjournal/history`. `LISTJOURNAL_HISTORY_SIZE`
/// sets the cap (default 1,000 lines; 0 keeps no file).
///
/// ```swift
/// let file = ReplHistoryFile.standard()   // nil without a home directory
/// ```
struct ReplHistoryFile: Sendable, Equatable {
  var path: String
  var capacity: Int

  static let defaultCapacity = 1_000

  /// The user's history file, or nil when there is no home to keep it in or the cap is 0.
  static func standard() -> ReplHistoryFile? {
    let capacity = environment("LISTJOURNAL_HISTORY_SIZE").flatMap { Int($0) }.map { max(0, $0) } ?? defaultCapacity
    guard capacity > 0 else { return nil }
    #if canImport(Darwin)
    guard let home = environment("HOME") else { return nil }
    let directory = home + "/Library/Application Support/listjournal"
    #else
    // The XDG spec ignores a relative XDG_STATE_HOME.
    let directory: String
    if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
      directory = state + "/listjournal"
    } else if let home = environment("HOME") {
      directory = home + "/.local/state/listjournal"
    } else {
      return nil
    }
    #endif
    return ReplHistoryFile(path: directory + "/history", capacity: capacity)
  }

  /// Creates the file's directory (and its parents, private to the user) when missing.
  func createDirectory() -> Bool {
    var prefix = ""
    for component in path.split(separator: "/").dropLast() {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0, errno != EEXIST { return false }
    }
    return true
  }

  private static func environment(_ name: String) -> String? {
    guard let value = getenv(name), value.pointee != 0 else { return nil }
    return String(cString: value)
  }
}
