import ListState

extension ListChangeset {
  /// The changeset as compact JSON:
  /// `{"stages":[{"sectionDeletes":[i],"sectionInserts":[i],"sectionMoves":[{"from":i,"to":j}],`
  /// `"sectionReloads":[i],"itemDeletes":[P],"itemInserts":[P],"itemMoves":[{"from":P,"to":P}],`
  /// `"itemReloads":[P],"itemReconfigures":[P]}]}` with `P = {"section":i,"item":j}`, keys in
  /// exactly that order.
  ///
  /// ```swift
  /// changeset.jsonDescription   // {"stages":[{"sectionDeletes":[],…,"itemInserts":[{"section":0,"item":3}],…}]}
  /// ```
  ///
  /// - Complexity: O(operations).
  public var jsonDescription: String {
    var json = "{\"stages\":["
    for (index, stage) in stages.enumerated() {
      if index > 0 { json += "," }
      stage.appendJSON(to: &json)
    }
    json += "]}"
    return json
  }

  /// One line per change, stage by stage: `- deleted <id>`, `+ inserted <id>`, `→ moved <id>`,
  /// `~ reloaded <id>`, `~ reconfigured <id>`; sections as `- deleted section <id>` and so on. Stages after the first are
  /// introduced by a `stage <n>` line. Empty when nothing changed.
  ///
  /// ```swift
  /// print(changeset.textDescription)
  /// // - deleted 7
  /// // + inserted 12
  /// // → moved 3
  /// ```
  ///
  /// - Complexity: O(operations).
  public var textDescription: String {
    lines.joined(separator: "\n")
  }

  /// The lines of ``textDescription``.
  public var lines: [String] {
    var lines: [String] = []
    for (index, stage) in stages.enumerated() {
      if stages.count > 1 { lines.append("stage \(index + 1)") }
      for id in stage.deletedSections { lines.append("- deleted section \(id)") }
      for id in stage.insertedSections { lines.append("+ inserted section \(id)") }
      for id in stage.movedSections { lines.append("→ moved section \(id)") }
      for id in stage.reloadedSections { lines.append("~ reloaded section \(id)") }
      for id in stage.deletedItems { lines.append("- deleted \(id)") }
      for id in stage.insertedItems { lines.append("+ inserted \(id)") }
      for id in stage.movedItems { lines.append("→ moved \(id)") }
      for id in stage.reloadedItems { lines.append("~ reloaded \(id)") }
      for id in stage.reconfiguredItems { lines.append("~ reconfigured \(id)") }
    }
    return lines
  }
}

extension ListChangeset.Stage {
  func appendJSON(to json: inout String) {
    func indexes(_ key: String, _ values: [Int], first: Bool = false) {
      json += first ? "\"\(key)\":[" : ",\"\(key)\":["
      for (index, value) in values.enumerated() {
        if index > 0 { json += "," }
        json += String(value)
      }
      json += "]"
    }
    func path(_ path: ListIndexPath) {
      json += "{\"section\":\(path.section),\"item\":\(path.row)}"
    }
    func paths(_ key: String, _ values: [ListIndexPath]) {
      json += ",\"\(key)\":["
      for (index, value) in values.enumerated() {
        if index > 0 { json += "," }
        path(value)
      }
      json += "]"
    }
    json += "{"
    indexes("sectionDeletes", sectionDeletes, first: true)
    indexes("sectionInserts", sectionInserts)
    json += ",\"sectionMoves\":["
    for (index, move) in sectionMoves.enumerated() {
      if index > 0 { json += "," }
      json += "{\"from\":\(move.from),\"to\":\(move.to)}"
    }
    json += "]"
    indexes("sectionReloads", sectionReloads)
    paths("itemDeletes", itemDeletes)
    paths("itemInserts", itemInserts)
    json += ",\"itemMoves\":["
    for (index, move) in itemMoves.enumerated() {
      if index > 0 { json += "," }
      json += "{\"from\":"
      path(move.from)
      json += ",\"to\":"
      path(move.to)
      json += "}"
    }
    json += "]"
    paths("itemReloads", itemReloads)
    paths("itemReconfigures", itemReconfigures)
    json += "}"
  }
}
