import ListLocking
import ListState

/// Where a store opened from its head (``ListStore/init(resumingAt:)``) finds the versions it did
/// not read: what can be answered cheaply (a version's facts, the events of recent versions)
/// and, once anything else is asked, the whole history as it was at open.
@usableFromInline
package struct HistorySource<Section: ListElement, Item: ListElement>: Sendable {
  /// A version's parent, time, label and size (nil: not known here).
  @usableFromInline package var info: @Sendable (Version) -> VersionInfo?
  /// The events of a version (nil: not known here; the whole history is loaded for them).
  @usableFromInline package var events: @Sendable (Version) -> [ListEvent<Section, Item>]?
  /// The child redo goes to from a version: `.some(nil)` when it has none, nil when not known here.
  @usableFromInline package var redoChild: @Sendable (Version) -> Version??
  /// The state at a version, markers cleared, rebuilt from the records near it (nil: not here,
  /// or not cleanly: the loaded history then answers, with its typed error if there is one).
  @usableFromInline package var state: @Sendable (Version) -> ListSnapshot<Section, Item>?
  /// The history as it was at open, replayed from the records (no sink): called once, the first
  /// time something needs more than the above.
  @usableFromInline package var replay: @Sendable () throws(HistoryError) -> ListStore<Section, Item>

  @usableFromInline
  package init(
    info: @escaping @Sendable (Version) -> VersionInfo?, events: @escaping @Sendable (Version) -> [ListEvent<Section, Item>]?,
    redoChild: @escaping @Sendable (Version) -> Version?? = { _ in nil },
    state: @escaping @Sendable (Version) -> ListSnapshot<Section, Item>? = { _ in nil },
    replay: @escaping @Sendable () throws(HistoryError) -> ListStore<Section, Item>
  ) {
    self.info = info
    self.events = events
    self.redoChild = redoChild
    self.state = state
    self.replay = replay
  }
}

/// The versions around the opened head that a store opened from its head holds before it loads
/// its history: the window. It starts as the opened head alone; the first head move that
/// leaves it reads the head's nearest ancestors and its redo path from the file (their events
/// at hand, see ``HistorySource``) into the graph, so that undo, redo and time travel near the
/// head need no replay. Anything outside it loads the history.
///
/// The graph stores a node for every version from the window's root on (placeholders, parent
/// -1, for the versions outside it); the root is a root with its state as a checkpoint.
@usableFromInline
struct _UnloadedWindow: Sendable {
  /// The oldest version of the window: the opened head until the window is read.
  @usableFromInline var root: Int
  /// Whether the ancestors and the redo path were read (once: the next miss loads the history).
  @usableFromInline var isRead = false
  /// Whether the head was at the root since the window was read (its parent's redo child is
  /// then the root, which the loaded history must learn).
  @usableFromInline var rootVisited = false
  /// Events of the window's versions up to the newest version at open (counted by the
  /// unloaded history too).
  @usableFromInline var eventCount = 0

  /// At most this many ancestors, and this many versions of redo path, are read.
  @inlinable
  static var maximumDepth: Int { 1_024 }
  /// The root is at most this many versions before the newest one (the graph stores a node for
  /// each of them).
  @inlinable
  static var maximumSpan: Int { 65_536 }

  @inlinable
  init(root: Int) { self.root = root }
}

extension _StoreState {
  /// Whether `version`'s node, events and state are in the graph (always when the history is
  /// loaded): the window's versions and the commits made since open.
  @inlinable
  func isMaterialized(_ version: Int) -> Bool {
    guard let unloaded, let window else { return true }
    if version > unloaded.latest || version == window.root { return true }
    return version > window.root && version < graph.count && graph.parent(of: version) != nil
  }

  /// Whether every one of `versions` is materialized, reading the window around the opened
  /// head first when one is not (false: only the loaded history holds them).
  @inlinable
  mutating func holdsReadingTheWindow(_ versions: some Sequence<Int>) -> Bool {
    if versions.allSatisfy({ isMaterialized($0) }) { return true }
    return readUnloadedWindow() && versions.allSatisfy({ isMaterialized($0) })
  }

  /// The child redo would go to from the materialized `version`: `.some(nil)` for none, nil
  /// when the file did not say (redo from there loads the history).
  @inlinable
  func knownRedoChild(of version: Int) -> Int?? {
    if unloaded != nil, graph.isRedoChildUnknown(of: version) { return nil }
    return .some(graph.redoChild(of: version))
  }

  /// Reads the window (see ``_UnloadedWindow``) while the head is still where the store opened
  /// or on the chain of commits made since: the opened head's nearest ancestors whose events the
  /// source has, their states by reverting from the head, and the redo path below the head.
  /// A no-op once read. Returns whether the window now holds more than the opened head.
  ///
  /// - Complexity: O(events of the versions read + their number × log), plus O(latest − root)
  ///   for the graph's placeholders; nothing per version of the older history.
  @inlinable
  @discardableResult
  mutating func readUnloadedWindow() -> Bool {
    guard let unloaded, var window = self.window, !window.isRead else { return false }
    window.isRead = true
    defer { self.window = window }
    let source = unloaded.source
    let opened = unloaded.head
    // Up from the opened head: each step reverts a version whose events and parent are at hand.
    var ancestors: [(version: Int, info: VersionInfo, events: [ListEvent<Section, Item>])] = []
    var rootState = unloaded.headState
    rootState.clearMarkers()
    var current = opened
    // Events first: a version's facts outside the index's recent commits come from its version
    // table, which is decoded whole (O(versions)) the first time.
    while current > 0, ancestors.count < _UnloadedWindow.maximumDepth,
      let events = source.events(Version(current)),
      let info = source.info(Version(current)), let parent = info.parent?.rawValue,
      unloaded.latest - parent <= _UnloadedWindow.maximumSpan
    {
      var reverted = rootState
      do {
        for event in events.reversed() { try event.inverse.apply(to: &reverted, verifying: false) }
      } catch { break }
      rootState = reverted
      ancestors.append((current, info, events))
      current = parent
    }
    // Down the redo path: the children redo goes to, as long as their events are at hand.
    var redoPath: [(version: Int, info: VersionInfo, events: [ListEvent<Section, Item>])] = []
    var below = unloaded.redoChild
    while let child = below, redoPath.count < _UnloadedWindow.maximumDepth, child <= unloaded.latest,
      let events = source.events(Version(child)),
      let info = source.info(Version(child)), info.parent?.rawValue == (redoPath.last?.version ?? opened)
    {
      redoPath.append((child, info, events))
      below = source.redoChild(Version(child)).map { $0?.rawValue } ?? nil
    }
    guard !ancestors.isEmpty || !redoPath.isEmpty else { return false }

    let root = current
    var filled = _UnloadedWindow(root: root)
    filled.isRead = true
    var read = _HistoryGraph<Section, Item>(
      checkpointInterval: graph.minimumCheckpointInterval, budget: graph.checkpointBudget)
    read.startUnloaded(through: unloaded.latest, head: root, state: rootState, storingNodes: true)
    var state = rootState
    func fill(_ version: Int, _ info: VersionInfo, _ events: [ListEvent<Section, Item>], state: ListSnapshot<Section, Item>) {
      var events = events
      filled.eventCount += events.count
      read.fillUnloaded(
        version, parent: info.parent!.rawValue, moving: &events, label: info.label,
        timestampMillis: HistoryCodec<Section, Item>.millis(info.timestamp), stateAfter: state)
    }
    for step in ancestors.reversed() {
      for event in step.events { try? event.apply(to: &state, verifying: false) }
      fill(step.version, step.info, step.events, state: state)
    }
    var redoState = unloaded.headState
    redoState.clearMarkers()
    for step in redoPath {
      for event in step.events { try? event.apply(to: &redoState, verifying: false) }
      fill(step.version, step.info, step.events, state: redoState)
    }
    // Redo children as the file gives them (the opened head's from the stream's position); one
    // outside the window is left unknown (redo there loads the history, which knows it).
    func redoChild(from version: Int) -> Int?? {
      guard let known = source.redoChild(Version(version)) else { return nil }
      guard let child = known?.rawValue else { return .some(nil) }
      return child < read.count && read.parent(of: child) == version ? .some(child) : nil
    }
    read.setRedoChild(of: root, to: redoChild(from: root))
    for step in ancestors.dropFirst() { read.setRedoChild(of: step.version, to: redoChild(from: step.version)) }
    read.setRedoChild(of: opened, to: .some(unloaded.redoChild))
    for (offset, step) in redoPath.enumerated() {
      read.setRedoChild(of: step.version, to: offset + 1 < redoPath.count ? .some(redoPath[offset + 1].version) : redoChild(from: step.version))
    }
    // The commits since open, a chain from the opened head, moved over as they were.
    var chainState = unloaded.headState
    for version in (unloaded.latest + 1)..<graph.count {
      let node = graph.node(version)
      var events = Array(graph.events(of: version))
      for event in events { try? event.apply(to: &chainState, verifying: false) }
      let added = read.add(
        parent: Int(node.parent), moving: &events, label: node.label, timestampMillis: node.timestampMillis,
        stateAfter: chainState)
      assert(added == version, "v\(version) moved to v\(added)")
      read.visit(added)
    }
    graph = read
    window = filled
    return true
  }
}

/// What a store opened from its head knows of the history it has not loaded, and the load.
///
/// The store holds versions `0...latest` as a run without nodes (no memory per version) but for
/// the opened head, whose state it has; commits made since are real versions on top of it.
/// Nothing moves the head before the history is loaded, so those commits form a chain from the
/// opened head. Loading replays the records of versions `0...latest` (immutable since open) off
/// the store's lock, then adds the chain to them (``ListStore/_loadHistory()``).
@usableFromInline
final class _UnloadedHistory<Section: ListElement, Item: ListElement>: Sendable {
  @usableFromInline typealias Snapshot = ListSnapshot<Section, Item>

  /// The newest version when the store was opened.
  @usableFromInline let latest: Int
  /// The head when the store was opened, and its state.
  @usableFromInline let head: Int
  @usableFromInline let headState: Snapshot
  /// Events of versions `0...latest`.
  @usableFromInline let eventCount: Int
  /// The opened head's redo child (nil: none).
  @usableFromInline let redoChild: Int?
  @usableFromInline let source: HistorySource<Section, Item>
  /// The replayed history (or why it failed), computed once; taken by the store that merges it.
  @usableFromInline let loaded = ListMutex<Result<ListStore<Section, Item>, HistoryError>?>(nil)

  @inlinable
  init(latest: Int, head: Int, headState: Snapshot, eventCount: Int, redoChild: Int?, source: HistorySource<Section, Item>) {
    self.latest = latest
    self.head = head
    self.headState = headState
    self.eventCount = eventCount
    self.redoChild = redoChild
    self.source = source
  }

  /// Replays the history unless that was done (or failed) before; threads that ask meanwhile
  /// wait for the one replay.
  @usableFromInline
  func load() {
    loaded.withLock { result in
      guard result == nil else { return }
      result = Result { () throws(HistoryError) in try source.replay() }
    }
  }

  /// Whether a load failed: the records disagree with what the store opened from, so nothing
  /// else is answered from the file either.
  @inlinable
  var failedToLoad: Bool {
    loaded.withLock { result in
      if case .failure? = result { return true }
      return false
    }
  }

  /// The replayed history, taken out (a failure stays, for the next caller).
  @inlinable
  func takeLoaded() throws(HistoryError) -> ListStore<Section, Item> {
    try loaded.withLock { result throws(HistoryError) in
      switch result {
      case .success(let store)?:
        result = nil
        return store
      case .failure(let error)?: throw error
      case nil: throw .invalidRecord(sequence: 0, reason: "the history was not loaded")
      }
    }
  }
}

extension ListStore {
  /// Loads the history a store opened from its head has not read yet: replays the journal's
  /// versions up to the opened head (off the lock, once), checks that they end where the store
  /// started, and adds the commits made since. A no-op for a store with its whole history.
  ///
  /// - Throws: ``HistoryError/invalidRecord(sequence:reason:)`` when the records cannot be
  ///   replayed or do not end at the state the store was opened with (the store then stays
  ///   as it is, every history read failing the same way).
  /// - Complexity: O(history) once; O(1) afterwards.
  @usableFromInline
  package func _loadHistory() throws(HistoryError) {
    guard let unloaded = state.withLock({ $0.unloaded }) else { return }
    unloaded.load()
    try state.withLock { state throws(HistoryError) in
      guard state.unloaded === unloaded else { return }
      let replayed = try unloaded.takeLoaded()
      // Moved out, not copied: a graph the replayed store still shared would be copied whole by
      // the first commit added below.
      var (graph, replayedHead, replayedState) = replayed.state.withLock { replayedState in
        var taken = _HistoryGraph<Section, Item>(checkpointInterval: 1, budget: .default)
        swap(&taken, &replayedState.graph)
        return (taken, replayedState.head, replayedState.headSnapshot)
      }
      // A disagreement stays, as a failed replay does: the next caller gets it without a replay.
      func refuse(_ reason: String) -> HistoryError {
        let error = HistoryError.invalidRecord(sequence: 0, reason: reason)
        unloaded.loaded.withLock { $0 = .failure(error) }
        return error
      }
      guard graph.count == unloaded.latest + 1, replayedHead == unloaded.head else {
        throw refuse(
          "the journal's records end at v\(graph.count - 1) with the head at v\(replayedHead), "
            + "not v\(unloaded.latest) and v\(unloaded.head) as its read index said")
      }
      guard replayedState == unloaded.headState else {
        throw refuse("the journal's records give another state of v\(unloaded.head) than its read index")
      }
      // The commits since open, on any version the window held; their states from the graph
      // that held them, only where the loaded graph keeps a checkpoint.
      let held = state.graph
      for version in (unloaded.latest + 1)..<held.count {
        let node = held.node(version)
        var events = Array(held.events(of: version))
        let added = graph.add(
          parent: Int(node.parent), moving: &events, label: node.label, timestampMillis: node.timestampMillis,
          stateAfter: {
            let plan = held.foldPlan(at: version)
            var state = plan.base
            for event in plan.events { try? event.apply(to: &state, verifying: false) }
            return state
          }())
        assert(added == version, "v\(version) moved to v\(added)")
      }
      // Where redo goes, as the moves since open left it.
      for version in (state.window?.root ?? unloaded.head)..<held.count where state.isMaterialized(version) {
        if let child = held.redoChild(of: version) { graph.setRedoChild(of: version, to: .some(child)) }
      }
      if state.window?.rootVisited == true { graph.visit(state.window!.root) }
      state.graph = graph
      state.unloaded = nil
      state.window = nil
    }
  }

  /// Loads the history for a read that cannot fail; a failure leaves the store answering from
  /// what it has (the next throwing call reports it).
  @inlinable
  func _loadHistoryForReading() { try? _loadHistory() }
}
