import ListState

/// Computes one batch between two visible-row states whose section fates are given by a plan.
///
/// Requires that every *moved* section has identical rows before and after (the changeset splits
/// otherwise). Identity is by identifier; whether a common row must be reloaded is asked of
/// `needsReload` (nil: never).
///
/// Per changed stationary section, the common prefix and suffix are matched without hashing; the
/// rest goes into one identifier → (section, row) dictionary shared by all changed sections, so
/// rows can move between sections. Within a section, common rows outside a longest increasing
/// subsequence of their old rows are the moves.
///
/// - Complexity: O(n + k log k) for n visible rows and k rows common to a changed section pair;
///   O(s) plus the reload checks when no section's rows changed.
@usableFromInline
struct _StageDiffer<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable> {
  @usableFromInline
  typealias Rows = ListVisibleRows<SectionID, ItemID>
  @usableFromInline
  typealias Stage = ListChangeset<SectionID, ItemID>.Stage

  /// A stationary section whose rows changed, with its common prefix and suffix trimmed.
  @usableFromInline
  struct ChangedPair {
    @usableFromInline
    var old: Int
    @usableFromInline
    var new: Int
    @usableFromInline
    var prefix: Int
    @usableFromInline
    var oldEnd: Int
    @usableFromInline
    var newEnd: Int
    @usableFromInline
    var matchedOffset: Int

    @inlinable
    init(old: Int, new: Int, prefix: Int, oldEnd: Int, newEnd: Int, matchedOffset: Int) {
      self.old = old
      self.new = new
      self.prefix = prefix
      self.oldEnd = oldEnd
      self.newEnd = newEnd
      self.matchedOffset = matchedOffset
    }
  }

  /// The batch, and the rows that moved and changed: they are reloaded in a later stage, at these
  /// index paths of `new`.
  @inlinable
  static func stage(
    from old: Rows, to new: Rows, plan: _SectionPlan, needsReload: ((ItemID) -> Bool)?
  ) -> (stage: Stage, trailingReloads: [(ListIndexPath, ItemID)]) {
    var stage = Stage()
    stage.sectionDeletes = plan.deletes
    stage.deletedSections = plan.deletes.map { old.sectionIdentifiers[$0] }
    stage.sectionInserts = plan.inserts
    stage.insertedSections = plan.inserts.map { new.sectionIdentifiers[$0] }
    stage.sectionMoves = plan.moves
    stage.movedSections = plan.moves.map { old.sectionIdentifiers[$0.from] }
    stage.sectionReloads = plan.reloads
    stage.reloadedSections = plan.reloads.map { old.sectionIdentifiers[$0] }
    var trailing: [(ListIndexPath, ItemID)] = []
    var reloads: [(ListIndexPath, ItemID)] = []
    var moves: [(ListMove<ListIndexPath>, ItemID)] = []

    func reloadCheck(forOld section: Int) -> ((ItemID) -> Bool)? {
      guard let needsReload else { return nil }
      if let suppressed = plan.itemReloadsSuppressed, suppressed[section] { return nil }
      return needsReload
    }

    var pairs: [ChangedPair] = []
    var pairOfOld = [Int](repeating: -1, count: old.rows.count)
    var middleTotal = 0
    for newSection in new.rows.indices {
      let oldSection = plan.newToOld[newSection]
      guard oldSection >= 0 else { continue }
      switch plan.newKind[newSection] {
      case .moved:
        if let check = reloadCheck(forOld: oldSection) {
          for (row, id) in new.rows[newSection].enumerated() where check(id) {
            trailing.append((ListIndexPath(section: newSection, row: row), id))
          }
        }
      case .stationary:
        let oldRows = old.rows[oldSection]
        let newRows = new.rows[newSection]
        if oldRows == newRows {
          if let check = reloadCheck(forOld: oldSection) {
            for (row, id) in newRows.enumerated() where check(id) {
              reloads.append((ListIndexPath(section: oldSection, row: row), id))
            }
          }
          continue
        }
        var pair = trimmedPair(oldRows, newRows, old: oldSection, new: newSection)
        pair.matchedOffset = middleTotal
        middleTotal += pair.oldEnd - pair.prefix
        pairOfOld[oldSection] = pairs.count
        pairs.append(pair)
      default:
        continue
      }
    }
    guard !pairs.isEmpty else {
      reloads.sort { $0.0 < $1.0 }
      stage.itemReloads = reloads.map(\.0)
      stage.reloadedItems = reloads.map(\.1)
      trailing.sort { $0.0 < $1.0 }
      return (stage, trailing)
    }

    // Where each old row of a changed section was: (section << 32) | row.
    var oldPosition = [ItemID: Int](minimumCapacity: middleTotal)
    for pair in pairs {
      old.rows[pair.old].withUnsafeBufferPointer { rows in
        for row in pair.prefix..<pair.oldEnd { oldPosition[rows[row]] = pair.old << 32 | row }
      }
    }
    var matched = [Bool](repeating: false, count: middleTotal)
    var lisOldRows: [Int] = []
    var lisNewRows: [Int] = []

    for pair in pairs {
      let oldRows = old.rows[pair.old]
      let newRows = new.rows[pair.new]
      let check = reloadCheck(forOld: pair.old)
      if let check {
        for row in 0..<pair.prefix where check(newRows[row]) {
          reloads.append((ListIndexPath(section: pair.old, row: row), newRows[row]))
        }
        for newRow in pair.newEnd..<newRows.count where check(newRows[newRow]) {
          reloads.append((ListIndexPath(section: pair.old, row: newRow - pair.newEnd + pair.oldEnd), newRows[newRow]))
        }
      }
      lisOldRows.removeAll(keepingCapacity: true)
      lisNewRows.removeAll(keepingCapacity: true)
      newRows.withUnsafeBufferPointer { rows in
        for newRow in pair.prefix..<pair.newEnd {
          let id = rows[newRow]
          guard let packed = oldPosition[id] else {
            stage.itemInserts.append(ListIndexPath(section: pair.new, row: newRow))
            stage.insertedItems.append(id)
            continue
          }
          let fromSection = packed >> 32
          let fromRow = packed & 0xFFFF_FFFF
          let source = pairs[pairOfOld[fromSection]]
          matched[source.matchedOffset + fromRow - source.prefix] = true
          if fromSection == pair.old {
            lisOldRows.append(fromRow)
            lisNewRows.append(newRow)
          } else {
            let destination = ListIndexPath(section: pair.new, row: newRow)
            moves.append((ListMove(from: ListIndexPath(section: fromSection, row: fromRow), to: destination), id))
            if let check, check(id) { trailing.append((destination, id)) }
          }
        }
      }
      let inPlace = _longestIncreasingSubsequenceMembership(lisOldRows)
      for index in lisOldRows.indices {
        let source = ListIndexPath(section: pair.old, row: lisOldRows[index])
        let id = oldRows[source.row]
        if inPlace[index] {
          if let check, check(id) { reloads.append((source, id)) }
        } else {
          let destination = ListIndexPath(section: pair.new, row: lisNewRows[index])
          moves.append((ListMove(from: source, to: destination), id))
          if let check, check(id) { trailing.append((destination, id)) }
        }
      }
    }
    for pair in pairs {
      let oldRows = old.rows[pair.old]
      for row in pair.prefix..<pair.oldEnd where !matched[pair.matchedOffset + row - pair.prefix] {
        stage.itemDeletes.append(ListIndexPath(section: pair.old, row: row))
        stage.deletedItems.append(oldRows[row])
      }
    }
    moves.sort { $0.0.to < $1.0.to }
    stage.itemMoves = moves.map(\.0)
    stage.movedItems = moves.map(\.1)
    reloads.sort { $0.0 < $1.0 }
    stage.itemReloads = reloads.map(\.0)
    stage.reloadedItems = reloads.map(\.1)
    trailing.sort { $0.0 < $1.0 }
    return (stage, trailing)
  }

  @inlinable
  static func trimmedPair(_ oldRows: [ItemID], _ newRows: [ItemID], old: Int, new: Int) -> ChangedPair {
    oldRows.withUnsafeBufferPointer { oldRows in
      newRows.withUnsafeBufferPointer { newRows in
        let shorter = min(oldRows.count, newRows.count)
        var prefix = 0
        while prefix < shorter, oldRows[prefix] == newRows[prefix] { prefix += 1 }
        var oldEnd = oldRows.count
        var newEnd = newRows.count
        while oldEnd > prefix, newEnd > prefix, oldRows[oldEnd - 1] == newRows[newEnd - 1] {
          oldEnd -= 1
          newEnd -= 1
        }
        return ChangedPair(old: old, new: new, prefix: prefix, oldEnd: oldEnd, newEnd: newEnd, matchedOffset: 0)
      }
    }
  }
}
