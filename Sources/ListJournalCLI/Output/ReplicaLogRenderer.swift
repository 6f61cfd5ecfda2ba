import ListHistory
/// Draws a replica journal's `log`: its commits in the agreed order, as text or JSON.
///
/// Text: `* 3  00000000000000b2:1  clock 2  2023-11-14T22:13:20Z  Set Item  (1 op: set pear)`,
/// `*` marking the replica's own commits; an undo or redo adds `undo of R:S` after the label.
/// JSON: `[{"position": N, "replica": R, "sequence": S, "clock": C, "time": T, "label": L,
/// "origin": "edit"|"undo"|"redo", "of": "R:S"|null, "ops": N, "own": bool}]`.
///
/// - Complexity: O(commits shown).
enum ReplicaLogRenderer {
  static func text(_ entries: [ReplicaLogEntry], style: TerminalStyle = .plain) -> String {
    guard !entries.isEmpty else { return "(no commits: the list is its base)" }
    return entries.map { entry in
      let marker = entry.isOwn ? style.yellow("*") : " "
      var label = entry.label.isEmpty ? "(no label)" : entry.label
      switch entry.origin {
      case .edit: break
      case .undo(let of): label += ", undo of \(of)"
      case .redo(let of): label += ", redo of \(of)"
      }
      var ops = entry.operationCount == 1 ? "1 op" : "\(entry.operationCount) ops"
      if !entry.operations.isEmpty { ops += ": " + entry.operations.joined(separator: "; ") }
      return "\(marker) \(style.bold(String(entry.position)))  \(entry.commit)  clock \(entry.lamportClock)  "
        + "\(LogRenderer.timestamp(entry.time))  \(label)  (\(ops))"
    }.joined(separator: "\n")
  }

  static func json(_ entries: [ReplicaLogEntry]) -> String {
    var json = JSONWriter()
    json.array { json in
      for entry in entries {
        json.object { json in
          json.key("position")
          json.number(entry.position)
          json.key("replica")
          json.string(entry.commit.replica.description)
          json.key("sequence")
          json.number(Int(entry.commit.sequence))
          json.key("clock")
          json.number(Int(entry.lamportClock))
          json.key("time")
          json.string(LogRenderer.timestamp(entry.time))
          json.key("label")
          json.string(entry.label)
          json.key("origin")
          switch entry.origin {
          case .edit:
            json.string("edit")
            json.key("of")
            json.null()
          case .undo(let of), .redo(let of):
            json.string(entry.origin == .undo(of: of) ? "undo" : "redo")
            json.key("of")
            json.string(of.description)
          }
          json.key("ops")
          json.number(entry.operationCount)
          json.key("own")
          json.bool(entry.isOwn)
        }
      }
    }
    return json.output
  }
}
