#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ListHistory

/// Draws `log`: one entry per version as text, JSON, or the undo tree (`--graph`).
///
/// Text: `* 3  ← 2  2024-05-01T10:00:00Z  Move Item  (1 op: move apple)` with `*` at the head
/// (the operation summary names at most four events, then "… N more").
/// JSON: `[{"version": V, "parent": P|null, "head": bool, "label": L, "ops": N}]`.
/// `ops` counts the sections and items a version changed (``ListEvent/changeCount``), so a
/// version made by one command shows the count its label names ("Append 2 Items": 2 ops).
/// Graph: a version with one child continues on the same column; branches nest under
/// `├─`/`└─`, so a long linear history stays narrow. Drawn for the newest versions only
/// (`log --limit`), each version whose parent is not among them starts a tree of its own and
/// names that parent: `5 Append Item  (parent 2)`.
///
/// - Complexity: O(versions).
enum LogRenderer {
  static func text(_ versions: [LogEntry], style: TerminalStyle = .plain) -> String {
    versions.map { info in
      let marker = info.isHead ? style.yellow("*") : " "
      let parent = info.parentIsLost ? "← ?" : info.parent.map { "← \($0)" } ?? "root"
      var ops = info.changeCount == 1 ? "1 op" : "\(info.changeCount) ops"
      if !info.operations.isEmpty { ops += ": " + info.operations.joined(separator: "; ") }
      return "\(marker) \(style.bold(String(info.version)))  \(parent)  \(timestamp(info.time))  \(displayLabel(info))  (\(ops))"
    }.joined(separator: "\n")
  }

  static func json(_ versions: [LogEntry]) -> String {
    var json = JSONWriter()
    json.array { json in
      for info in versions {
        json.object { json in
          json.key("version")
          json.number(info.version)
          json.key("parent")
          if let parent = info.parent { json.number(parent) } else { json.null() }
          json.key("head")
          json.bool(info.isHead)
          json.key("label")
          json.string(info.label)
          json.key("ops")
          json.number(info.changeCount)
        }
      }
    }
    return json.output
  }

  static func graph(_ versions: [LogEntry], style: TerminalStyle = .plain) -> String {
    var children: [Int: [Int]] = [:]
    var byVersion: [Int: LogEntry] = [:]
    var roots: [Int] = []
    for info in versions { byVersion[info.version] = info }
    // A version whose parent is not listed (version 0, or older than `log --limit` shows)
    // starts a root.
    for info in versions {
      if let parent = info.parent, byVersion[parent] != nil {
        children[parent, default: []].append(info.version)
      } else {
        roots.append(info.version)
      }
    }
    var lines: [String] = []
    func line(_ version: Int, prefix: String) -> String {
      let info = byVersion[version]!
      // A root of `log --limit`'s tree names the parent it was committed on.
      let parent = info.parent.flatMap { byVersion[$0] == nil ? "  " + style.dim("(parent \($0))") : nil } ?? ""
      let head = info.isHead ? "  " + style.yellow("← head") : ""
      return "\(prefix)\(style.bold(String(version))) \(displayLabel(info))\(parent)\(head)"
    }
    // Iterative walk: (version, prefix for its own line, prefix for what follows it).
    var stack: [(Int, String, String)] = roots.reversed().map { ($0, "", "") }
    while let (version, own, rest) = stack.popLast() {
      lines.append(line(version, prefix: own))
      let kids = children[version] ?? []
      if kids.count == 1 {
        stack.append((kids[0], rest, rest))
      } else {
        for (index, kid) in kids.enumerated().reversed() {
          let last = index == kids.count - 1
          stack.append((kid, rest + (last ? "└─ " : "├─ "), rest + (last ? "   " : "│  ")))
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The label, or what the version is when it has none.
  static func displayLabel(_ info: LogEntry) -> String {
    if !info.label.isEmpty { return info.label }
    return info.parent == nil ? "(empty list)" : "(no label)"
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in UTC.
  static func timestamp(_ seconds: Double) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}
