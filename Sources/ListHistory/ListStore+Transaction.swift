import ListState

extension ListStore {
  /// The mutable view a transaction body works on: the same operations as ``ListSnapshot``
  /// (same arguments, same ``ListError``s), each applied to a private working copy and recorded
  /// as ``ListEvent``s. Nothing is visible outside until the body returns; if it throws, the
  /// whole transaction is dropped.
  ///
  /// ```swift
  /// try store.transaction(label: "Add Fruit") { tx in
  ///     try tx.appendSections(["Fruit"])
  ///     try tx.appendItems(["Apple", "Pear"])
  /// }
  /// ```
  public struct Transaction: Sendable {
    public typealias Failure = ListError<Section.ID, Item.ID>
    public typealias Location = ListItemLocation<Section.ID, Item.ID>
    public typealias Outline = ListOutline<Item>
    public typealias Event = ListEvent<Section, Item>

    /// The working state: the head at the start plus every operation so far.
    @inlinable
    public var snapshot: ListSnapshot<Section, Item> {
      // Yielded, not returned: a query through it (`tx.snapshot.contains(item:)`) borrows the
      // working state instead of copying its storage references (a retain and release each).
      _read { yield _snapshot }
    }
    /// The events recorded so far, in order.
    @inlinable
    public var events: [Event] { _events }
    @usableFromInline var _snapshot: ListSnapshot<Section, Item>
    @usableFromInline var _events: [Event] = []
    /// The label of the version this transaction creates (for an undo menu); nil: the
    /// ``defaultLabel``.
    public var label: String?
    /// The operations' own label, "Move Item", "Delete 3 Items", "Expand Item": what the
    /// version is labelled when ``label`` is nil. Operations that changed nothing do not count;
    /// operations of one kind add up ("Delete 2 Items" then "Delete Item": "Delete 3 Items");
    /// nil when nothing changed or the operations are of different kinds.
    ///
    /// ```swift
    /// try store.transaction { tx in
    ///     try tx.deleteItems(["a"])
    ///     try tx.deleteItems(["b", "c"])
    ///     tx.defaultLabel   // "Delete 3 Items"
    /// }
    /// ```
    @inlinable
    public var defaultLabel: String? { _mixedLabels ? nil : _operationLabel?.text }
    @usableFromInline var _operationLabel: _OperationLabel?
    @usableFromInline var _mixedLabels = false
    /// Whether the transaction creates a version even when its operations recorded no event
    /// (each changed nothing, like moving an item to where it already is). Off by default: such
    /// a transaction then creates no version. A tool that promises one version per command
    /// (`listjournal exec`) turns it on; the version has no events, so undoing it changes nothing.
    public var commitsWhenUnchanged = false

    @inlinable
    init(snapshot: ListSnapshot<Section, Item>, label: String? = nil) {
      self._snapshot = snapshot
      self.label = label
    }

    /// A transaction over `snapshot` outside any store: what a replica applies its operations
    /// through, to record their exact events.
    @inlinable
    package init(_detached snapshot: ListSnapshot<Section, Item>, label: String? = nil) {
      self.init(snapshot: snapshot, label: label)
    }

    /// Takes the working snapshot and the recorded events out of a detached transaction.
    @inlinable
    package mutating func _take() -> (snapshot: ListSnapshot<Section, Item>, events: [Event]) {
      let result = (_snapshot, _events)
      _snapshot = ListSnapshot()
      _events = []
      return result
    }

    /// Takes the events recorded so far out of a detached transaction (it goes on with none).
    @inlinable
    package mutating func _takeEvents() -> [Event] {
      var taken: [Event] = []
      swap(&taken, &_events)
      return taken
    }

    /// Applies an event as it is and records it (no label): replaying exact events, such as the
    /// inverses a rebase reverts with.
    @inlinable
    package mutating func _apply(_ event: Event) throws(HistoryError) {
      try event.apply(to: &_snapshot, verifying: false)
      _events.append(event)
    }

    @inlinable
    mutating func record(_ event: Event) { _events.append(event) }

    /// Counts an operation towards ``defaultLabel`` if it recorded events (since `mark`).
    @inlinable
    mutating func _noteLabel(_ label: _OperationLabel, since mark: Int) {
      guard _events.count > mark, !_mixedLabels else { return }
      guard let current = _operationLabel else { return _operationLabel = label }
      if current.isSameKind(as: label) {
        _operationLabel!.count += label.count
      } else {
        _mixedLabels = true
      }
    }

    /// The location of an item the model has just placed; it exists by the model's contract.
    @inlinable
    func placed(_ id: Item.ID) -> Location {
      guard let location = snapshot.location(ofItem: id) else {
        preconditionFailure("ListSnapshot lost item \(id) right after placing it")
      }
      return location
    }

    @inlinable
    func placedSection(_ id: Section.ID) -> Int {
      guard let index = snapshot.index(ofSection: id) else {
        preconditionFailure("ListSnapshot lost section \(id) right after placing it")
      }
      return index
    }
  }
}
