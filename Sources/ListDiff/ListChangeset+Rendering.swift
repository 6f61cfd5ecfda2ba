import ListState

extension ListChangeset {
  /// The changeset as compact JSON:
  /// `{"stages":[{"sectionDeletes":[i],"sectionInserts":[i],"sectionMoves":[{"from":i,"to":j}],`
  /// `"sectionReloads":[i],"itemDeletes":[P],"itemInserts":[P],"itemMoves":[{"from":P,"to":P}],`
  /// `"itemReloads":[P]}]}` with `P = {"section":i,"item":j}`, keys in exactly that order.
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
  /// `~ reloaded <id>`; sections as `- deleted section <id>` and so on. Stages after the first are
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
      let before = stage.before
      let after = stage.after
      for index in stage.sectionDeletes { lines.append("- deleted section \(before.sectionIdentifiers[index])") }
      for index in stage.sectionInserts { lines.append("+ inserted section \(after.sectionIdentifiers[index])") }
      for move in stage.sectionMoves { lines.append("→ moved section \(before.sectionIdentifiers[move.from])") }
      for index in stage.sectionReloads { lines.append("~ reloaded section \(before.sectionIdentifiers[index])") }
      for path in stage.itemDeletes { lines.append("- deleted \(before.rows[path.section][path.row])") }
      for path in stage.itemInserts { lines.append("+ inserted \(after.rows[path.section][path.row])") }
      for move in stage.itemMoves { lines.append("→ moved \(before.rows[move.from.section][move.from.row])") }
      for path in stage.itemReloads { lines.append("~ reloaded \(before.rows[path.section][path.row])") }
    }
    return lines
  }
}

extension ListChangeset.Stage {
  /// The identifiers this stage deletes, inserts, moves and reloads (rows only).
  public var deletedItemIdentifiers: [ItemID] { itemDeletes.map { before.rows[$0.section][$0.row] } }
  public var insertedItemIdentifiers: [ItemID] { itemInserts.map { after.rows[$0.section][$0.row] } }
  public var movedItemIdentifiers: [ItemID] { itemMoves.map { before.rows[$0.from.section][$0.from.row] } }
  public var reloadedItemIdentifiers: [ItemID] { itemReloads.map { before.rows[$0.section][$0.row] } }

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
    json += "}"
  }
}
