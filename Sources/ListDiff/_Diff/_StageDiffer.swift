import ListState

/// Computes one batch between two visible-row states whose section fates are given by a plan.
///
/// Requires that every *moved* section has identical rows before and after (the changeset splits
/// otherwise). Identity is by identifier; whether a common row must be reloaded is asked of
/// `reload`, with the row's position in `new`.
///
/// Per changed stationary section, the common prefix and suffix are matched without hashing; the
/// rest of every changed section is matched by one ``_RowMatcher`` (in place where the rows stay
/// aligned, through its identifier tables otherwise), so rows can move between sections. Within a
/// section, common rows outside a longest increasing subsequence of their old rows are the moves.
///
/// - Complexity: O(n + k log k) for n visible rows and k rows common to a changed section pair,
///   with a hash only per row the matcher cannot pair in place; O(s) plus the reload checks when
///   no section's rows changed.
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
    /// Where the pair's changed old rows (`prefix..<oldEnd`) start in the matcher's global old
    /// numbering, and its changed new rows (`prefix..<newEnd`) in the new one.
    @usableFromInline
    var oldBase: Int
    @usableFromInline
    var newBase: Int

    @inlinable
    init(old: Int, new: Int, prefix: Int, oldEnd: Int, newEnd: Int) {
      self.old = old
      self.new = new
      self.prefix = prefix
      self.oldEnd = oldEnd
      self.newEnd = newEnd
      self.oldBase = 0
      self.newBase = 0
    }
  }

  /// The batch, and the rows that moved and changed: they are reloaded in a later stage, at these
  /// index paths of `new`.
  @inlinable
  static func stage(
    from old: Rows, to new: Rows, plan: _SectionPlan, reload: _ReloadTest<ItemID>
  ) -> (stage: Stage, trailingReloads: [(ListIndexPath, ItemID)]) {
    var stage = Stage()
    // Deletes highest first (safe to apply one by one to an array), inserts lowest first.
    stage.sectionDeletes = plan.deletes.sorted(by: >)
    stage.deletedSections = stage.sectionDeletes.map { old.sectionIdentifiers[$0] }
    assert(plan.inserts == plan.inserts.sorted(), "section inserts ascending")
    stage.sectionInserts = plan.inserts
    stage.insertedSections = plan.inserts.map { new.sectionIdentifiers[$0] }
    stage.sectionMoves = plan.moves
    stage.movedSections = plan.moves.map { old.sectionIdentifiers[$0.from] }
    stage.sectionReloads = plan.reloads
    stage.reloadedSections = plan.reloads.map { old.sectionIdentifiers[$0] }
    var trailing: [(ListIndexPath, ItemID)] = []
    var reloads: [(ListIndexPath, ItemID)] = []
    var moves: [(ListMove<ListIndexPath>, ItemID)] = []

    func checksReloads(ofOld section: Int) -> Bool {
      guard reload.isActive else { return false }
      if let suppressed = plan.itemReloadsSuppressed, suppressed[section] { return false }
      return true
    }

    var pairs: [ChangedPair] = []
    var oldTotal = 0
    var newTotal = 0
    for newSection in new.rows.indices {
      let oldSection = plan.newToOld[newSection]
      guard oldSection >= 0 else { continue }
      switch plan.newKind[newSection] {
      case .moved:
        if checksReloads(ofOld: oldSection) {
          for (row, id) in new.rows[newSection].enumerated() where reload(id, section: newSection, row: row) {
            trailing.append((ListIndexPath(section: newSection, row: row), id))
          }
        }
      case .stationary:
        let oldRows = old.rows[oldSection]
        let newRows = new.rows[newSection]
        if Self.rowsEqual(oldRows, newRows) {
          if checksReloads(ofOld: oldSection) {
            for (row, id) in newRows.enumerated() where reload(id, section: newSection, row: row) {
              reloads.append((ListIndexPath(section: oldSection, row: row), id))
            }
          }
          continue
        }
        var pair = trimmedPair(oldRows, newRows, old: oldSection, new: newSection)
        pair.oldBase = oldTotal
        pair.newBase = newTotal
        oldTotal += pair.oldEnd - pair.prefix
        newTotal += pair.newEnd - pair.prefix
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

    // Match every changed row first (all pairs: rows move between sections), then list the
    // changes pair by pair. `newToOld`: per changed new row, its changed old row or -1.
    var newToOld = [Int](repeating: -1, count: newTotal)
    var oldMatched = [Bool](repeating: false, count: oldTotal)
    newToOld.withUnsafeMutableBufferPointer { newToOld in
      oldMatched.withUnsafeMutableBufferPointer { oldMatched in
        // Edits are usually a small part of the rows; the tables grow when they are not.
        var matcher = _RowMatcher<ItemID>(minimumCapacity: max(oldTotal, newTotal) / 8)
        for pair in pairs {
          old.rows[pair.old].withUnsafeBufferPointer { oldRows in
            new.rows[pair.new].withUnsafeBufferPointer { newRows in
              matcher.match(
                old: UnsafeBufferPointer(rebasing: oldRows[pair.prefix..<pair.oldEnd]), oldBase: pair.oldBase,
                new: UnsafeBufferPointer(rebasing: newRows[pair.prefix..<pair.newEnd]), newBase: pair.newBase,
                newToOld: newToOld, oldMatched: oldMatched)
            }
          }
        }
      }
    }

    // Per pair, the old rows of its same-section matches in new order (scratch for the LIS).
    var sameSection = [Int](repeating: 0, count: pairs.reduce(0) { max($0, $1.newEnd - $1.prefix) })
    for pair in pairs {
      let newRows = new.rows[pair.new]
      let checking = checksReloads(ofOld: pair.old)
      if checking {
        for row in 0..<pair.prefix where reload(newRows[row], section: pair.new, row: row) {
          reloads.append((ListIndexPath(section: pair.old, row: row), newRows[row]))
        }
        for newRow in pair.newEnd..<newRows.count where reload(newRows[newRow], section: pair.new, row: newRow) {
          reloads.append((ListIndexPath(section: pair.old, row: newRow - pair.newEnd + pair.oldEnd), newRows[newRow]))
        }
      }
      let oldMiddleCount = pair.oldEnd - pair.prefix
      newRows.withUnsafeBufferPointer { rows in
        newToOld.withUnsafeBufferPointer { newToOld in
          sameSection.withUnsafeMutableBufferPointer { sameSection in
            let matches = UnsafeBufferPointer(rebasing: newToOld[pair.newBase..<(pair.newBase + pair.newEnd - pair.prefix)])
            // Inserts and moves in from other sections; the rest waits for the LIS.
            var sameCount = 0
            for offset in matches.indices {
              let source = matches[offset]
              let newRow = pair.prefix + offset
              if source < 0 {
                stage.itemInserts.append(ListIndexPath(section: pair.new, row: newRow))
                stage.insertedItems.append(rows[newRow])
              } else if UInt(bitPattern: source - pair.oldBase) < UInt(oldMiddleCount) {
                sameSection[sameCount] = source - pair.oldBase + pair.prefix
                sameCount += 1
              } else {
                let id = rows[newRow]
                let destination = ListIndexPath(section: pair.new, row: newRow)
                moves.append((ListMove(from: Self.oldIndexPath(ofGlobalRow: source, in: pairs), to: destination), id))
                if checking, reload(id, section: pair.new, row: newRow) { trailing.append((destination, id)) }
              }
            }
            let inPlace = _longestIncreasingSubsequenceMembership(UnsafeBufferPointer(rebasing: sameSection[..<sameCount]))
            // Same-section matches again, in the same order: kept in place or moved.
            var index = 0
            for offset in matches.indices {
              let source = matches[offset]
              guard source >= 0, UInt(bitPattern: source - pair.oldBase) < UInt(oldMiddleCount) else { continue }
              let newRow = pair.prefix + offset
              let oldRow = ListIndexPath(section: pair.old, row: sameSection[index])
              let id = rows[newRow]
              if inPlace[index] {
                if checking, reload(id, section: pair.new, row: newRow) { reloads.append((oldRow, id)) }
              } else {
                let destination = ListIndexPath(section: pair.new, row: newRow)
                moves.append((ListMove(from: oldRow, to: destination), id))
                if checking, reload(id, section: pair.new, row: newRow) { trailing.append((destination, id)) }
              }
              index += 1
            }
          }
        }
      }
    }
    // Highest first: pairs and their rows backwards (a pair's old sections ascend with its new ones).
    for pair in pairs.reversed() {
      let oldRows = old.rows[pair.old]
      for row in (pair.prefix..<pair.oldEnd).reversed() where !oldMatched[pair.oldBase + row - pair.prefix] {
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

  /// `a == b`, as one tight loop over both buffers (the unchanged-section check reads every
  /// row; `Array.==` compiled here into a loop that reloaded a base pointer per element).
  ///
  /// - Complexity: O(n), O(1) when both share a buffer or differ in length.
  @inlinable
  static func rowsEqual(_ a: [ItemID], _ b: [ItemID]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        if a.baseAddress == b.baseAddress { return true }
        // Four rows per step: one branch per four comparisons where the rows are equal.
        var index = 0
        while index + 4 <= a.count {
          let same = (a[index] == b[index]) && (a[index + 1] == b[index + 1])
            && (a[index + 2] == b[index + 2]) && (a[index + 3] == b[index + 3])
          if !same { return false }
          index += 4
        }
        while index < a.count {
          if a[index] != b[index] { return false }
          index += 1
        }
        return true
      }
    }
  }

  /// The old index path of the matcher's global old row `row`.
  ///
  /// - Complexity: O(log p) for p pairs (a binary search of the pairs' `oldBase`, increasing).
  @inlinable
  static func oldIndexPath(ofGlobalRow row: Int, in pairs: [ChangedPair]) -> ListIndexPath {
    var low = 0
    var high = pairs.count - 1
    while low < high {
      let middle = (low + high + 1) >> 1
      if pairs[middle].oldBase <= row { low = middle } else { high = middle - 1 }
    }
    let pair = pairs[low]
    return ListIndexPath(section: pair.old, row: row - pair.oldBase + pair.prefix)
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
        return ChangedPair(old: old, new: new, prefix: prefix, oldEnd: oldEnd, newEnd: newEnd)
      }
    }
  }
}
