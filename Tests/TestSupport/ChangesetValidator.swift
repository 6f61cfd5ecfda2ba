import ListDiff
import ListState

/// Simulates UIKit's batch-update rules stage by stage and checks a changeset end to end.
///
/// For each stage it rejects what `performBatchUpdates` rejects (positions out of range in the
/// before or after state, duplicates, an index both reloaded and moved or deleted, a move source
/// also deleted, a move destination also inserted, rows listed inside inserted, deleted or reloaded
/// sections, a section count or a row count that does not add up — UIKit's "Invalid update:
/// invalid number of items in section N"), then applies the batch to the rows the view shows and
/// checks them against the rows the data source shows after the stage (`stage.after`, or the
/// target). The identifiers listed next to the positions must be the ones at those positions. At the end the view must
/// show the target rows, and the reloads and reconfigures must be exactly the expected ones.
///
/// It also checks the documented order (deletes descending, inserts ascending, moves by ascending
/// destination, reloads and reconfigures ascending — checked by applying the deletes and inserts one
/// by one to arrays) and that reconfigures appear only in a stage without structural changes.
///
/// Stricter than UIKit where UIKit's behaviour is murky: by default no row of a moved section
/// may be listed (the changeset splits such changes into stages).
///
/// ```swift
/// try ChangesetValidator().validate(changeset, from: old, to: new,
///                                   reloadedSections: [], reloadedItems: ["b"])
/// ```
public struct ChangesetValidator: Sendable {
  /// Why a changeset was rejected: the stage (0-based) and what went wrong.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var stage: Int
    public var message: String
    public var description: String { "stage \(stage): \(message)" }
  }

  /// Whether rows of a section that moves in the same batch may be listed.
  public var allowsRowChangesInMovedSections = false

  public init(allowsRowChangesInMovedSections: Bool = false) {
    self.allowsRowChangesInMovedSections = allowsRowChangesInMovedSections
  }

  /// Checks every stage of `changeset` and its end result.
  ///
  /// `reloadedSections`/`reloadedItems`: the sections and rows (present, resp. visible, in both
  /// states) whose content changed or that were marked; each must be refreshed — explicitly
  /// reloaded, or freshly inserted (by a row insert, or with an inserted or reloaded section) — and
  /// nothing else may be explicitly reloaded.
  ///
  /// - Complexity: O(stages · n) for n visible rows.
  public func validate<S: Hashable & Sendable, I: Hashable & Sendable>(
    _ changeset: ListChangeset<S, I>, from old: ListVisibleRows<S, I>, to new: ListVisibleRows<S, I>,
    reloadedSections expectedSections: Set<S> = [], reloadedItems expectedItems: Set<I> = [],
    reconfiguredItems expectedReconfigures: Set<I> = []
  ) throws(Failure) {
    var current = old
    var explicitReconfigures: [I] = []
    var explicitItems: [I] = []
    var freshItems = Set<I>()
    var explicitSections: [S] = []
    var freshSections = Set<S>()
    for (number, stage) in changeset.stages.enumerated() {
      func fail(_ message: String) -> Failure { Failure(stage: number, message: message) }
      guard !stage.isEmpty else { throw fail("empty stage") }
      let before = current
      let after = stage.after ?? new
      if stage.after != nil, number == changeset.stages.count - 1 {
        throw fail("the last stage must end in the target (after == nil)")
      }
      let beforeCount = before.sectionIdentifiers.count
      let afterCount = after.sectionIdentifiers.count

      // Sections.
      var deletedSections = Set<Int>()
      for index in stage.sectionDeletes {
        guard (0..<beforeCount).contains(index) else { throw fail("section delete \(index) out of range (\(beforeCount))") }
        guard deletedSections.insert(index).inserted else { throw fail("section \(index) deleted twice") }
      }
      var reloadedSectionSet = Set<Int>()
      for index in stage.sectionReloads {
        guard (0..<beforeCount).contains(index) else { throw fail("section reload \(index) out of range (\(beforeCount))") }
        guard !deletedSections.contains(index) else { throw fail("section \(index) both deleted and reloaded") }
        guard reloadedSectionSet.insert(index).inserted else { throw fail("section \(index) reloaded twice") }
      }
      var movedFrom = Set<Int>()
      for move in stage.sectionMoves {
        guard (0..<beforeCount).contains(move.from) else { throw fail("section move source \(move.from) out of range") }
        guard !deletedSections.contains(move.from) else { throw fail("section \(move.from) both deleted and moved") }
        guard !reloadedSectionSet.contains(move.from) else { throw fail("section \(move.from) both reloaded and moved") }
        guard movedFrom.insert(move.from).inserted else { throw fail("section \(move.from) moved twice") }
      }
      guard beforeCount - stage.sectionDeletes.count + stage.sectionInserts.count == afterCount else {
        throw fail(
          "invalid number of sections: \(afterCount) after, \(beforeCount) before, "
            + "\(stage.sectionInserts.count) inserted, \(stage.sectionDeletes.count) deleted")
      }
      var sourceOfAfter = [Int?](repeating: nil, count: afterCount)  // nil: not yet placed
      var insertedSections = Set<Int>()
      for index in stage.sectionInserts {
        guard (0..<afterCount).contains(index) else { throw fail("section insert \(index) out of range (\(afterCount))") }
        guard insertedSections.insert(index).inserted else { throw fail("section \(index) inserted twice") }
        sourceOfAfter[index] = -1
      }
      var movedTo = Set<Int>()
      for move in stage.sectionMoves {
        guard (0..<afterCount).contains(move.to) else { throw fail("section move destination \(move.to) out of range") }
        guard !insertedSections.contains(move.to) else { throw fail("section \(move.to) both inserted and moved to") }
        guard movedTo.insert(move.to).inserted else { throw fail("two sections moved to \(move.to)") }
        sourceOfAfter[move.to] = move.from
      }
      var staying = (0..<beforeCount).filter { !deletedSections.contains($0) && !movedFrom.contains($0) }[...]
      for index in 0..<afterCount where sourceOfAfter[index] == nil {
        sourceOfAfter[index] = staying.popFirst()
      }
      var afterOfBefore = [Int](repeating: -1, count: beforeCount)
      for (index, source) in sourceOfAfter.enumerated() {
        guard let source else { throw fail("section layout does not add up") }
        if source >= 0 {
          guard after.sectionIdentifiers[index] == before.sectionIdentifiers[source] else {
            throw fail("after section \(index) shows '\(after.sectionIdentifiers[index])', the batch puts '\(before.sectionIdentifiers[source])' there")
          }
          afterOfBefore[source] = index
        }
      }
      func beforeClosed(_ section: Int) -> Bool { deletedSections.contains(section) || reloadedSectionSet.contains(section) }
      func afterClosed(_ section: Int) -> Bool {
        let source = sourceOfAfter[section]!
        return source < 0 || reloadedSectionSet.contains(source)
      }

      // Rows in the before state.
      func checkBefore(_ path: ListIndexPath, _ what: String) throws(Failure) {
        guard (0..<beforeCount).contains(path.section) else { throw fail("\(what) \(path): no such section before") }
        guard !beforeClosed(path.section) else { throw fail("\(what) \(path) inside a deleted or reloaded section") }
        guard (0..<before.rows[path.section].count).contains(path.row) else {
          throw fail("\(what) \(path) out of range (\(before.rows[path.section].count) rows)")
        }
        if !allowsRowChangesInMovedSections, movedFrom.contains(path.section) {
          throw fail("\(what) \(path) inside a moving section")
        }
      }
      var deletedRows = Set<ListIndexPath>()
      for path in stage.itemDeletes {
        try checkBefore(path, "row delete")
        guard deletedRows.insert(path).inserted else { throw fail("row \(path) deleted twice") }
      }
      var movedRows = Set<ListIndexPath>()
      for move in stage.itemMoves {
        try checkBefore(move.from, "row move source")
        guard !deletedRows.contains(move.from) else { throw fail("row \(move.from) both deleted and moved") }
        guard movedRows.insert(move.from).inserted else { throw fail("row \(move.from) moved twice") }
      }
      var reloadedRows = Set<ListIndexPath>()
      for path in stage.itemReloads {
        try checkBefore(path, "row reload")
        guard !deletedRows.contains(path) else { throw fail("row \(path) both deleted and reloaded") }
        guard !movedRows.contains(path) else { throw fail("row \(path) both moved and reloaded") }
        guard reloadedRows.insert(path).inserted else { throw fail("row \(path) reloaded twice") }
      }
      if !stage.itemReconfigures.isEmpty, stage.hasStructuralChanges {
        throw fail("rows reconfigured in a stage with structural changes")
      }
      for path in stage.itemReconfigures {
        try checkBefore(path, "row reconfigure")
        guard !reloadedRows.contains(path) else { throw fail("row \(path) both reloaded and reconfigured") }
        guard reloadedRows.insert(path).inserted else { throw fail("row \(path) reconfigured twice") }
      }

      // The documented order: deletes descending, inserts ascending, moves by destination.
      func strictly<T>(_ values: [T], _ ordered: (T, T) -> Bool, _ what: String) throws(Failure) {
        for (a, b) in zip(values, values.dropFirst()) where !ordered(a, b) { throw fail("\(what) out of order: \(a) then \(b)") }
      }
      try strictly(stage.sectionDeletes, >, "section deletes (descending)")
      try strictly(stage.sectionInserts, <, "section inserts (ascending)")
      try strictly(stage.itemDeletes, >, "row deletes (descending)")
      try strictly(stage.itemInserts, <, "row inserts (ascending)")
      try strictly(stage.itemMoves.map(\.to), <, "row moves (by ascending destination)")
      try strictly(stage.itemReloads, <, "row reloads (ascending)")
      try strictly(stage.itemReconfigures, <, "row reconfigures (ascending)")

      // Rows in the after state.
      func checkAfter(_ path: ListIndexPath, _ what: String) throws(Failure) {
        guard (0..<afterCount).contains(path.section) else { throw fail("\(what) \(path): no such section after") }
        guard !afterClosed(path.section) else { throw fail("\(what) \(path) inside an inserted or reloaded section") }
        guard path.row >= 0 else { throw fail("\(what) \(path) out of range") }
        if !allowsRowChangesInMovedSections, movedTo.contains(path.section) {
          throw fail("\(what) \(path) inside a moving section")
        }
      }
      var destinations = [ListIndexPath: I]()
      var insertedRows = Set<ListIndexPath>()
      for path in stage.itemInserts {
        try checkAfter(path, "row insert")
        guard insertedRows.insert(path).inserted else { throw fail("row \(path) inserted twice") }
      }
      for move in stage.itemMoves {
        try checkAfter(move.to, "row move destination")
        guard !insertedRows.contains(move.to) else { throw fail("row \(move.to) both inserted and moved to") }
        guard destinations[move.to] == nil else { throw fail("two rows moved to \(move.to)") }
        destinations[move.to] = before.rows[move.from.section][move.from.row]
      }

      // Apply, section by section, and compare with what the data source shows.
      var rows = [[I]]()
      rows.reserveCapacity(afterCount)
      for section in 0..<afterCount {
        let afterRows = after.rows[section]
        if afterClosed(section) {
          rows.append(afterRows)
          continue
        }
        let source = sourceOfAfter[section]!
        let deletes = stage.itemDeletes.count { $0.section == source }
        let movesOut = stage.itemMoves.count { $0.from.section == source }
        let inserts = stage.itemInserts.count { $0.section == section }
        let movesIn = stage.itemMoves.count { $0.to.section == section }
        let expectedCount = before.rows[source].count - deletes - movesOut + inserts + movesIn
        guard expectedCount == afterRows.count else {
          throw fail(
            "Invalid update: invalid number of items in section \(section). The number of items contained in an "
              + "existing section after the update (\(afterRows.count)) must be equal to the number of items contained "
              + "in that section before the update (\(before.rows[source].count)), plus or minus the number of items "
              + "inserted or deleted from that section (\(inserts) inserted, \(deletes) deleted) and plus or minus the "
              + "number of items moved into or out of that section (\(movesIn) moved in, \(movesOut) moved out).")
        }
        var remaining = before.rows[source].enumerated().lazy
          .filter { !deletedRows.contains(ListIndexPath(section: source, row: $0.offset))
            && !movedRows.contains(ListIndexPath(section: source, row: $0.offset)) }
          .map(\.element).makeIterator()
        var result = [I]()
        result.reserveCapacity(expectedCount)
        for row in 0..<expectedCount {
          let path = ListIndexPath(section: section, row: row)
          if insertedRows.contains(path) {
            result.append(afterRows[row])
          } else if let moved = destinations[path] {
            result.append(moved)
          } else if let next = remaining.next() {
            result.append(next)
          } else {
            throw fail("row layout of section \(section) does not add up")
          }
        }
        for path in insertedRows where path.section == section && path.row >= expectedCount {
          throw fail("row insert \(path) out of range (\(expectedCount) rows)")
        }
        for path in destinations.keys where path.section == section && path.row >= expectedCount {
          throw fail("row move destination \(path) out of range (\(expectedCount) rows)")
        }
        guard result == afterRows else {
          let row = result.indices.first { result[$0] != afterRows[$0] } ?? 0
          throw fail("after the batch section \(section) row \(row) shows '\(result[row])' but the data source has '\(afterRows[row])'")
        }
        rows.append(result)
      }
      current = ListVisibleRows(sections: after.sectionIdentifiers, rows: rows)

      // The identifiers next to the positions.
      func same<T: Equatable>(_ listed: [T], _ actual: [T], _ what: String) throws(Failure) {
        guard listed == actual else { throw fail("\(what) identifiers \(listed) do not match the positions (\(actual))") }
      }
      try same(stage.deletedSections, stage.sectionDeletes.map { before.sectionIdentifiers[$0] }, "deleted section")
      try same(stage.insertedSections, stage.sectionInserts.map { after.sectionIdentifiers[$0] }, "inserted section")
      try same(stage.movedSections, stage.sectionMoves.map { before.sectionIdentifiers[$0.from] }, "moved section")
      try same(stage.reloadedSections, stage.sectionReloads.map { before.sectionIdentifiers[$0] }, "reloaded section")
      try same(stage.deletedItems, stage.itemDeletes.map { before.rows[$0.section][$0.row] }, "deleted row")
      try same(stage.insertedItems, stage.itemInserts.map { after.rows[$0.section][$0.row] }, "inserted row")
      try same(stage.movedItems, stage.itemMoves.map { before.rows[$0.from.section][$0.from.row] }, "moved row")
      try same(stage.reloadedItems, stage.itemReloads.map { before.rows[$0.section][$0.row] }, "reloaded row")
      try same(stage.reconfiguredItems, stage.itemReconfigures.map { before.rows[$0.section][$0.row] }, "reconfigured row")
      for path in stage.itemReconfigures where after[path] != before[path] {
        throw fail("reconfigured row \(path) is not the same row after the batch")
      }
      if stage.itemMoves.isEmpty, !stage.sectionDeletes.isEmpty || !stage.sectionInserts.isEmpty || !stage.itemDeletes.isEmpty
        || !stage.itemInserts.isEmpty
      {
        // One by one, in the listed order, on plain arrays: what many data sources do.
        var sections = before.sectionIdentifiers
        for index in stage.sectionDeletes { sections.remove(at: index) }
        var arrays = before.rows
        for path in stage.itemDeletes where !beforeClosed(path.section) { arrays[path.section].remove(at: path.row) }
        if stage.sectionMoves.isEmpty {
          for (index, id) in zip(stage.sectionInserts, stage.insertedSections) { sections.insert(id, at: index) }
          guard sections == after.sectionIdentifiers else { throw fail("one-by-one section deletes and inserts miss the target") }
          if stage.sectionDeletes.isEmpty, stage.sectionInserts.isEmpty {
            for (path, id) in zip(stage.itemInserts, stage.insertedItems) { arrays[path.section].insert(id, at: path.row) }
            for section in arrays.indices where !reloadedSectionSet.contains(section) && arrays[section] != after.rows[section] {
              throw fail("one-by-one row deletes and inserts miss the rows of section \(section)")
            }
          }
        }
      }

      // Refresh bookkeeping.
      for path in stage.itemReloads { explicitItems.append(before.rows[path.section][path.row]) }
      for path in stage.itemReconfigures { explicitReconfigures.append(before.rows[path.section][path.row]) }
      for path in stage.itemInserts { freshItems.insert(after.rows[path.section][path.row]) }
      for index in stage.sectionReloads {
        explicitSections.append(before.sectionIdentifiers[index])
        freshItems.formUnion(after.rows[afterOfBefore[index]])
      }
      for index in stage.sectionInserts {
        freshSections.insert(after.sectionIdentifiers[index])
        freshItems.formUnion(after.rows[index])
      }
    }
    let last = changeset.stages.count
    guard current == new else { throw Failure(stage: last, message: "the stages do not reach the target rows") }
    var seenItems = Set<I>()
    for id in explicitItems {
      guard expectedItems.contains(id) else { throw Failure(stage: last, message: "row '\(id)' reloaded but unchanged") }
      guard seenItems.insert(id).inserted else { throw Failure(stage: last, message: "row '\(id)' reloaded twice") }
    }
    for id in expectedItems where !seenItems.contains(id) && !freshItems.contains(id) {
      throw Failure(stage: last, message: "changed row '\(id)' is not reloaded")
    }
    var seenReconfigures = Set<I>()
    for id in explicitReconfigures {
      guard expectedReconfigures.contains(id) else { throw Failure(stage: last, message: "row '\(id)' reconfigured but not marked") }
      guard !seenItems.contains(id) else { throw Failure(stage: last, message: "row '\(id)' both reloaded and reconfigured") }
      guard seenReconfigures.insert(id).inserted else { throw Failure(stage: last, message: "row '\(id)' reconfigured twice") }
    }
    for id in expectedReconfigures where !seenReconfigures.contains(id) && !freshItems.contains(id) {
      throw Failure(stage: last, message: "reconfigured row '\(id)' is neither reconfigured nor freshly shown")
    }
    var seenSections = Set<S>()
    for id in explicitSections {
      guard expectedSections.contains(id) else { throw Failure(stage: last, message: "section '\(id)' reloaded but unchanged") }
      guard seenSections.insert(id).inserted else { throw Failure(stage: last, message: "section '\(id)' reloaded twice") }
    }
    for id in expectedSections where !seenSections.contains(id) && !freshSections.contains(id) {
      throw Failure(stage: last, message: "changed section '\(id)' is not reloaded")
    }
  }
}
