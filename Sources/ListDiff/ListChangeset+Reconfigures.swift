import ListState

extension ListChangeset {
  /// Moves the rows `isReconfigure` picks from the stages' reloads to their reconfigures.
  ///
  /// A stage with structural changes keeps none: its reconfigured rows go, at their final index
  /// paths (`finalPath`), to a trailing stage that changes nothing else (the last stage, when it
  /// already only reloads), where a row's position before and after the batch agree.
  ///
  /// - Complexity: O(reloaded rows · log) plus the calls.
  @inlinable
  mutating func _separateReconfigures(
    where isReconfigure: (ItemID) -> Bool, finalPath: (ItemID) -> ListIndexPath?
  ) {
    var deferred: [(ListIndexPath, ItemID)] = []
    for index in stages.indices where !stages[index].itemReloads.isEmpty {
      let stage = stages[index]
      guard stage.reloadedItems.contains(where: isReconfigure) else { continue }
      var reloads: [ListIndexPath] = []
      var reloaded: [ItemID] = []
      var reconfigures: [(ListIndexPath, ItemID)] = []
      for (path, id) in zip(stage.itemReloads, stage.reloadedItems) {
        if !isReconfigure(id) {
          reloads.append(path)
          reloaded.append(id)
        } else if stage.hasStructuralChanges {
          if let path = finalPath(id) { deferred.append((path, id)) }
        } else {
          reconfigures.append((path, id))
        }
      }
      stages[index].itemReloads = reloads
      stages[index].reloadedItems = reloaded
      stages[index]._addReconfigures(reconfigures)
    }
    stages.removeAll { $0.isEmpty }
    guard !deferred.isEmpty else { return }
    if let last = stages.indices.last, !stages[last].hasStructuralChanges, stages[last].after == nil {
      stages[last]._addReconfigures(deferred)
    } else {
      var stage = Stage()
      stage._addReconfigures(deferred)
      stages.append(stage)
    }
  }
}

extension ListChangeset.Stage {
  /// Adds reconfigured rows, keeping ``itemReconfigures`` ascending.
  @inlinable
  mutating func _addReconfigures(_ added: [(ListIndexPath, ItemID)]) {
    guard !added.isEmpty else { return }
    var all = Array(zip(itemReconfigures, reconfiguredItems))
    all.append(contentsOf: added)
    all.sort { $0.0 < $1.0 }
    itemReconfigures = all.map(\.0)
    reconfiguredItems = all.map(\.1)
  }
}
