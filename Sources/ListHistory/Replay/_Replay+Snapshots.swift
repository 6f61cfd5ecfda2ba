import ListState

extension _Replay {
  /// Ends a flat replay: builds the pending checkpoints' snapshots and the head's, with `work`
  /// as further tasks, two at a time (each is an independent O(items) build from a fold; the
  /// head's, the largest, on the calling thread, which may recurse as deep as the outline).
  ///
  /// - Throws: an error restoring the head's markers (see ``headSnapshot(from:restoringMarkersOf:)``).
  @inlinable
  func buildSnapshots(alongside work: [() -> Void] = []) throws(HistoryError) {
    let fold = self.fold!
    let markerEvents = self.markerEvents()
    var head: Result<ListSnapshot<Section, Item>, HistoryError>?
    pendingCheckpoints.drop(state.graph.takeDroppedPendingCheckpoints())  // none left in practice
    pendingCheckpoints.build(into: &state.graph, alongside: work) {
      head = Result { () throws(HistoryError) in try Self.headSnapshot(from: fold, restoringMarkersOf: markerEvents) }
    }
    state.headSnapshot = try head!.get()
  }

  /// The events of the record that last changed the head (see `markerSource`), copied out of
  /// the history (a few events: a commit's, or a short path's).
  @inlinable
  func markerEvents() -> [ListEvent<Section, Item>] {
    switch markerSource {
    case .none: []
    case .commit(let version): Array(state.graph.events(of: version))
    case .move(let from, let to): state.graph.path(from: from, to: to).map { state.graph.pathEvents($0) } ?? []
    }
  }

  /// The head's snapshot built from `fold`, with the markers the same replay into snapshots
  /// leaves (those of the record that last changed the head): `markerEvents` are undone and
  /// redone on the built snapshot, O(their count).
  @inlinable
  static func headSnapshot(
    from fold: ListFold<Section, Item>, restoringMarkersOf markerEvents: [ListEvent<Section, Item>]
  ) throws(HistoryError) -> ListSnapshot<Section, Item> {
    var snapshot = fold.snapshot()
    guard !markerEvents.isEmpty else { return snapshot }
    for event in markerEvents.reversed() { try event.inverse.apply(to: &snapshot, verifying: false) }
    snapshot.clearMarkers()
    for event in markerEvents { try event.apply(to: &snapshot, verifying: false) }
    return snapshot
  }
}
