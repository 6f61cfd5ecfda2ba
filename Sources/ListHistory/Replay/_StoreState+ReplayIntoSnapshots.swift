import ListState

extension _StoreState {
  /// Applies one decoded record to a store being rebuilt (verifying every event), folding into
  /// the head's snapshot; a commit's events that `itemsFromState` lists (by index in a batch's
  /// buffer, where the commit's first event was at `firstEvent`) get their remembered items
  /// from the head's state first.
  @inlinable
  mutating func replay(
    _ content: consuming HistoryRecordContent<Section, Item>, itemsFromState: inout _ItemsFromState<Item.ID>,
    firstEvent: Int
  ) throws {
    switch consume content {
    case .commit(var commit):
      try checkReplayed(commit)
      if graph.lost.contains(head) {
        // On a lost version (the stream checked one out): lost too, its events unverifiable
        // (and their stand-ins left unfilled).
        for index in commit.events.indices { _ = itemsFromState.id(forEvent: firstEvent + index) }
        graph.addLost(through: commit.version.rawValue)
        head = commit.version.rawValue
        return
      }
      // The head's storage is taken (the state keeps an empty placeholder), so the events
      // mutate uniquely referenced nodes in place instead of copying their paths — as a live
      // transaction does. A failure abandons the whole replay, so nothing needs restoring.
      var snapshot = headSnapshot
      headSnapshot = ListSnapshot()
      snapshot.clearMarkers()
      for index in commit.events.indices {
        if let id = itemsFromState.id(forEvent: firstEvent + index) {
          try commit.events[index]._fillStandIn(for: id, with: snapshot.item(id))
        }
        try commit.events[index].apply(to: &snapshot, verifying: true)
      }
      var transaction = ListStore<Section, Item>.Transaction(snapshot: snapshot, label: commit.label)
      // Taken, not shared: the history moves the events out of a uniquely owned array.
      swap(&transaction._events, &commit.events)
      install(transaction: &transaction, parent: head, millis: HistoryCodec<Section, Item>.millis(commit.timestamp))
    case .headMove(let move):
      try checkReplayed(move)
      let target = move.to.rawValue
      if graph.lost.contains(target) {
        head = target
        headSnapshot = ListSnapshot()  // unknown; nothing reads a lost head's state
        graph.visit(target)
        return
      }
      let (baseVersion, events) = headMovePlan(to: target)
      var final: ListSnapshot<Section, Item>
      if let baseVersion {
        final = graph.checkpoints[Int32(baseVersion)]!
      } else {
        final = headSnapshot
        headSnapshot = ListSnapshot()  // in place, as for a commit
        final.clearMarkers()
      }
      for event in events { try event.apply(to: &final, verifying: false) }
      if baseVersion != nil { final.clearMarkers() }
      head = target
      headSnapshot = final
      graph.visit(target)
    case .checkpoint(let checkpoint):
      if awaitsResumption {
        headSnapshot = try resume(at: checkpoint)
      } else {
        try checkReplayed(checkpoint)
      }
    case .gap(let gap):
      try replayGap(gap)
      headSnapshot = ListSnapshot()
    }
  }
}
