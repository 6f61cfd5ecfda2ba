import ListState
import ListHistory

/// What a field of an item or section was last set by, to tell a concurrent change that
/// replaced it (an override) from a later one.
@usableFromInline
enum _WrittenField<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Hashable, Sendable {
  case itemContent(ItemID)
  case itemPlace(ItemID)
  case itemExpansion(ItemID)
  case sectionContent(SectionID)
  case sectionPlace(SectionID)
}

/// The writer of a field: the commit and the index of its operation.
@usableFromInline
struct _Writer: Hashable, Sendable {
  @usableFromInline var commit: ReplicaCommitID
  @usableFromInline var operation: Int
  @inlinable init(commit: ReplicaCommitID, operation: Int) {
    self.commit = commit
    self.operation = operation
  }
}

/// The state after a prefix of the agreed order: the list, and what the rules need beyond it —
/// where deleted items and sections were (their tombstones), and who last set each field.
///
/// Everything a commit changes here is recorded (``_AppliedCommit``), so that a rebase reverts
/// commits exactly, newest first, instead of folding the whole order again.
@usableFromInline
struct _MergeState<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline typealias Anchor = ReplicaAnchor<Section.ID, Item.ID>
  @usableFromInline typealias Field = _WrittenField<Section.ID, Item.ID>
  @usableFromInline typealias Transaction = ListStore<Section, Item>.Transaction

  @usableFromInline var snapshot: ListSnapshot<Section, Item>
  /// Where each deleted item was: its container and the sibling it followed.
  @usableFromInline var itemTombstones: [Item.ID: Anchor] = [:]
  /// The item that replaced each replaced one: its children live under that one now.
  @usableFromInline var replacedItems: [Item.ID: Item.ID] = [:]
  /// The section each deleted section followed (nil: it was first).
  @usableFromInline var sectionTombstones: [Section.ID: Section.ID?] = [:]
  /// The section that replaced each replaced one: its items live in that one now.
  @usableFromInline var replacedSections: [Section.ID: Section.ID] = [:]
  @usableFromInline var writers: [Field: _Writer] = [:]

  @inlinable
  init(snapshot: ListSnapshot<Section, Item>) { self.snapshot = snapshot }
}

/// What applying one commit changed: the list's exact events and the tables' previous values,
/// in order, and the overrides its operations left.
@usableFromInline
struct _AppliedCommit<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline var events: [ListEvent<Section, Item>] = []
  @usableFromInline var itemTombstones: [(Item.ID, ReplicaAnchor<Section.ID, Item.ID>?)] = []
  @usableFromInline var replacedItems: [(Item.ID, Item.ID?)] = []
  @usableFromInline var sectionTombstones: [(Section.ID, Section.ID??)] = []
  @usableFromInline var replacedSections: [(Section.ID, Section.ID?)] = []
  @usableFromInline var writers: [(_WrittenField<Section.ID, Item.ID>, _Writer?)] = []
  @usableFromInline var overrides: [ReplicaOverride<Section, Item>] = []
  @inlinable init() {}
}

extension _MergeState {
  /// Applies commits by the merge rules, in order; never fails (an operation that cannot apply
  /// as made is transformed, and leaves an override). One working transaction serves them all.
  ///
  /// - Complexity: O(log n) per operation and touched item.
  @inlinable
  mutating func apply(_ commits: some Sequence<ReplicaCommit<Section, Item>>, into applied: inout [_AppliedCommit<Section, Item>]) {
    // The transaction takes the list (uniquely referenced: operations mutate it in place).
    var transaction = Transaction(_detached: snapshot)
    snapshot = ListSnapshot()
    for commit in commits {
      var record = _AppliedCommit<Section, Item>()
      let operations = commit.operations
      for index in operations.indices {
        var context = _RuleContext(commit: commit, operation: index)
        apply(operations[index], context: &context, transaction: &transaction, applied: &record)
      }
      record.events = transaction._takeEvents()
      applied.append(record)
    }
    var after = transaction._take().snapshot
    // Markers say what one change touched; a merged list carries none (its diff says).
    after.clearMarkers()
    snapshot = after
  }

  /// Undoes what ``apply(_:into:)`` recorded, newest first, removing the records from `applied`
  /// down to `count`.
  ///
  /// - Complexity: O(events and table changes of the commits), O(log n) each.
  @inlinable
  mutating func revert(_ applied: inout [_AppliedCommit<Section, Item>], downTo count: Int) {
    guard applied.count > count else { return }
    // The list is taken (uniquely referenced: the inverses change it in place), and the events
    // are moved out of their records: nothing records the inverses, which nobody reads.
    var working = snapshot
    snapshot = ListSnapshot()
    while applied.count > count {
      var record = applied.removeLast()
      while let event = record.events.popLast() {
        do { try event.inverse.apply(to: &working, verifying: false) } catch {
          preconditionFailure("a recorded replica event does not revert: \(error)")
        }
      }
      for (id, old) in record.itemTombstones.reversed() { itemTombstones[id] = old }
      for (id, old) in record.replacedItems.reversed() { replacedItems[id] = old }
      for (id, old) in record.sectionTombstones.reversed() { sectionTombstones[id] = old }
      for (id, old) in record.replacedSections.reversed() { replacedSections[id] = old }
      for (field, old) in record.writers.reversed() { writers[field] = old }
    }
    working.clearMarkers()
    snapshot = working
  }

  // MARK: Tables, recorded

  @inlinable
  mutating func setTombstone(_ id: Item.ID, _ anchor: Anchor?, _ applied: inout _AppliedCommit<Section, Item>) {
    let old = anchor == nil ? itemTombstones.removeValue(forKey: id) : itemTombstones.updateValue(anchor!, forKey: id)
    if old != anchor { applied.itemTombstones.append((id, old)) }
  }

  @inlinable
  mutating func setReplacement(_ id: Item.ID, _ heir: Item.ID?, _ applied: inout _AppliedCommit<Section, Item>) {
    let old = heir == nil ? replacedItems.removeValue(forKey: id) : replacedItems.updateValue(heir!, forKey: id)
    if old != heir { applied.replacedItems.append((id, old)) }
  }

  @inlinable
  mutating func setSectionReplacement(_ id: Section.ID, _ heir: Section.ID?, _ applied: inout _AppliedCommit<Section, Item>) {
    let old = heir == nil ? replacedSections.removeValue(forKey: id) : replacedSections.updateValue(heir!, forKey: id)
    if old != heir { applied.replacedSections.append((id, old)) }
  }

  /// Forgets what the tables say about identifiers that exist again.
  @inlinable
  mutating func clearTables(for ids: [Item.ID], _ applied: inout _AppliedCommit<Section, Item>) {
    guard !itemTombstones.isEmpty || !replacedItems.isEmpty else { return }
    for id in ids {
      if itemTombstones[id] != nil { setTombstone(id, nil, &applied) }
      if replacedItems[id] != nil { setReplacement(id, nil, &applied) }
    }
  }

  @inlinable
  mutating func setSectionTombstone(_ id: Section.ID, _ after: Section.ID??, _ applied: inout _AppliedCommit<Section, Item>) {
    let old: Section.ID?? = sectionTombstones[id].map { Optional($0) } ?? nil
    switch after {
    case .none: sectionTombstones.removeValue(forKey: id)
    case .some(let value): sectionTombstones[id] = .some(value)
    }
    applied.sectionTombstones.append((id, old))
  }

  /// Records that the operation sets `field`, and an override for the previous writer when it
  /// was a concurrent commit of another replica (this later one in the order wins).
  @inlinable
  mutating func write(_ field: Field, subject: ReplicaOverride<Section, Item>.Subject, context: _RuleContext<Section, Item>,
    _ applied: inout _AppliedCommit<Section, Item>)
  {
    let writer = _Writer(commit: context.commit.id, operation: context.operation)
    let old = writers.updateValue(writer, forKey: field)
    applied.writers.append((field, old))
    if let old, old.commit.replica != writer.commit.replica, !context.commit.isBased(on: old.commit) {
      applied.overrides.append(
        ReplicaOverride(commit: old.commit, operation: old.operation, subject: subject, reason: .superseded(by: writer.commit)))
    }
  }
}

/// The operation being applied: its commit and index (what overrides name).
@usableFromInline
struct _RuleContext<Section: ListElement, Item: ListElement> {
  @usableFromInline let commit: ReplicaCommit<Section, Item>
  @usableFromInline let operation: Int
  @inlinable init(commit: ReplicaCommit<Section, Item>, operation: Int) {
    self.commit = commit
    self.operation = operation
  }

  @inlinable
  func override(_ subject: ReplicaOverride<Section, Item>.Subject, _ reason: ReplicaOverride<Section, Item>.Reason)
    -> ReplicaOverride<Section, Item>
  {
    ReplicaOverride(commit: commit.id, operation: operation, subject: subject, reason: reason)
  }
}
