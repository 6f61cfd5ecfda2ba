/// Whether this build checks invariants after every mutation: only when it defines
/// `LISTJOURNAL_INVARIANTS`, as the package's own test command does (never an app's build).
package let _invariantChecksCompiled: Bool = {
  #if LISTJOURNAL_INVARIANTS
  return true
  #else
  return false
  #endif
}()

/// The item count up to which `_checkInvariants()` checks everything after each mutation.
@usableFromInline let _invariantFullCheckLimit = 4_096

extension ListSnapshot {
  /// Checks every structural invariant; traps on violation. Real only when the build
  /// defines `LISTJOURNAL_INVARIANTS` (the package's test command); a no-op otherwise. Called at the end of every
  /// mutating operation.
  ///
  /// Checked: every B+tree's counts, weights, summaries, label order, fill and depth; the section
  /// order against the section records (labels, item counts, visible counts); every item reached
  /// from the sections against its record (label, container, subtree and visible weights);
  /// every record reached exactly once; markers name existing items and sections.
  ///
  /// Lists larger than ``_invariantFullCheckLimit`` items get only the O(sections) checks after
  /// each mutation: a full check per operation turns a long run on a big list (a debug build
  /// replaying a real journal) quadratic. ``_checkAllInvariants()`` always checks everything.
  ///
  /// - Complexity: O(n) up to the limit, O(sections) above it.
  @inlinable
  public func _checkInvariants() {
    #if LISTJOURNAL_INVARIANTS
    if _itemRecords.count > _invariantFullCheckLimit {
      _sectionOrder._checkInvariants()
      precondition(_sectionOrder.count == _sectionRecords.count, "section order and records disagree")
      return
    }
    _checkAllInvariants()
    #endif
  }

  /// Checks every structural invariant whatever the list's size; traps on violation. Always
  /// compiled, so tools (`listjournal verify`) check real states in release builds too.
  ///
  /// - Complexity: O(n).
  @inlinable
  public func _checkAllInvariants() {
    _sectionOrder._checkInvariants()
    _itemRecords._checkInvariants()
    _sectionRecords._checkInvariants()
    precondition(_sectionOrder.count == _sectionRecords.count, "section order and records disagree")
    var reached = 0
    _sectionOrder.forEach { entry in
      guard let record = _sectionRecords[entry.id] else { preconditionFailure("section \(entry.id) has no record") }
      precondition(record.label == entry.label, "section \(entry.id): label mismatch")
      precondition(record.value.id == entry.id, "section \(entry.id): value id mismatch")
      precondition(entry.w1 == record.roots.w1, "section \(entry.id): item count mismatch")
      precondition(entry.w2 == record.roots.w2, "section \(entry.id): visible count mismatch")
      _checkForest(record.roots, container: .section(entry.id), reached: &reached)
    }
    precondition(reached == _itemRecords.count, "\(_itemRecords.count - reached) item records are unreachable")
    _reloadedItems.tree._checkInvariants()
    _reconfiguredItems.tree._checkInvariants()
    _reloadedSections.tree._checkInvariants()
    for id in _reloadedItems { precondition(_itemRecords.contains(id), "reloaded marker on unknown item \(id)") }
    if _markerEpoch != 0 {
      // Stamped records and reloaded markers are the same items.
      var stamped = 0
      _itemRecords.forEach { id, record in
        guard record.reloadStamp == _markerEpoch else { return }
        stamped += 1
        precondition(_reloadedItems.contains(id), "item \(id) is stamped reloaded but not marked")
      }
      precondition(stamped == _reloadedItems.count, "reloaded markers on unstamped items")
    }
    for id in _reconfiguredItems { precondition(_itemRecords.contains(id), "reconfigured marker on unknown item \(id)") }
    for id in _reloadedSections { precondition(_sectionRecords.contains(id), "reloaded marker on unknown section \(id)") }
  }

  @inlinable
  func _checkForest(_ tree: ItemTree, container: Container, reached: inout Int) {
    tree._checkInvariants()
    tree.forEach { entry in
      guard let record = _itemRecords[entry.id] else { preconditionFailure("item \(entry.id) has no record") }
      reached += 1
      precondition(record.value.id == entry.id, "item \(entry.id): value id mismatch")
      precondition(record.label == entry.label, "item \(entry.id): label mismatch")
      precondition(record.container == container, "item \(entry.id): container mismatch")
      precondition(entry.w1 == record.subtreeCount, "item \(entry.id): subtree count mismatch")
      precondition(entry.w2 == record.visibleCount, "item \(entry.id): visible count mismatch")
      _checkForest(record.children, container: .parent(entry.id), reached: &reached)
    }
  }
}
