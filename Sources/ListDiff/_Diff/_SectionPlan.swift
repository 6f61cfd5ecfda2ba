/// How each section fares between two states, and the section-level operations that say so.
///
/// A section that survives is *stationary* when it is in the longest increasing subsequence of
/// survivors (minimal moves), *moved* otherwise. A survivor whose content changed is *reloaded*
/// when stationary and *replaced* (deleted + inserted) when moved: UIKit cannot move and reload
/// one section in a batch, and reloading a section re-reads its rows anyway.
///
/// Rows of stationary and moved sections are "open" (row changes are listed); rows of the other
/// kinds are "closed" (they come and go with their section).
@usableFromInline
struct _SectionPlan: Sendable {
  @usableFromInline
  enum Kind: UInt8, Sendable {
    case stationary, moved, reloaded, replaced, deleted, inserted

    @inlinable
    var isOpen: Bool { self == .stationary || self == .moved }
  }

  /// Per old section: its index in the new state, or -1.
  @usableFromInline
  var oldToNew: [Int]
  /// Per new section: its index in the old state, or -1.
  @usableFromInline
  var newToOld: [Int]
  @usableFromInline
  var oldKind: [Kind]
  @usableFromInline
  var newKind: [Kind]
  @usableFromInline
  var deletes: [Int] = []
  @usableFromInline
  var inserts: [Int] = []
  @usableFromInline
  var moves: [ListMove<Int>] = []
  @usableFromInline
  var reloads: [Int] = []

  /// Per old section: true when its rows are not to be reloaded item by item (they are reloaded,
  /// deleted or inserted with their section in a later stage). Nil: no section is.
  @usableFromInline
  var itemReloadsSuppressed: [Bool]? = nil

  /// Every section kept in place, nothing reloaded: the plan of a rows-only stage.
  @inlinable
  init(identityOver count: Int, suppressingItemReloadsIn suppressed: [Bool]) {
    oldToNew = Array(0..<count)
    newToOld = oldToNew
    oldKind = [Kind](repeating: .stationary, count: count)
    newKind = oldKind
    itemReloadsSuppressed = suppressed
  }

  /// - Complexity: O(s log s) for s sections, plus one `needsReload` call per survivor.
  @inlinable
  init<SectionID: Hashable>(from old: [SectionID], to new: [SectionID], needsReload: (SectionID) -> Bool) {
    oldToNew = [Int](repeating: -1, count: old.count)
    newToOld = [Int](repeating: -1, count: new.count)
    oldKind = [Kind](repeating: .deleted, count: old.count)
    newKind = [Kind](repeating: .inserted, count: new.count)
    if old == new {
      for index in old.indices {
        oldToNew[index] = index
        newToOld[index] = index
      }
    } else {
      var oldIndex = [SectionID: Int](minimumCapacity: old.count)
      for (index, id) in old.enumerated() { oldIndex[id] = index }
      for (index, id) in new.enumerated() {
        if let previous = oldIndex[id] {
          newToOld[index] = previous
          oldToNew[previous] = index
        }
      }
    }
    var survivors: [Int] = []  // old indexes in new order
    var survivorNewIndexes: [Int] = []
    for (newIndex, oldIndex) in newToOld.enumerated() where oldIndex >= 0 {
      survivors.append(oldIndex)
      survivorNewIndexes.append(newIndex)
    }
    let inPlace = _longestIncreasingSubsequenceMembership(survivors)
    for position in survivors.indices {
      let oldIndex = survivors[position]
      let newIndex = survivorNewIndexes[position]
      let reload = needsReload(new[newIndex])
      let kind: Kind =
        switch (inPlace[position], reload) {
        case (true, false): .stationary
        case (true, true): .reloaded
        case (false, false): .moved
        case (false, true): .replaced
        }
      oldKind[oldIndex] = kind
      newKind[newIndex] = kind
      switch kind {
      case .moved: moves.append(ListMove(from: oldIndex, to: newIndex))
      case .reloaded: reloads.append(oldIndex)
      case .replaced:
        deletes.append(oldIndex)
        inserts.append(newIndex)
      default: break
      }
    }
    for (index, kind) in oldKind.enumerated() where kind == .deleted { deletes.append(index) }
    for (index, kind) in newKind.enumerated() where kind == .inserted { inserts.append(index) }
    deletes.sort()
    inserts.sort()
    reloads.sort()
  }
}
