import ListHistory
import ListState

/// The state with reload/reconfigure markers dropped (they are transient, not history).
public func cleared(_ snapshot: TestSnapshot) -> TestSnapshot {
  var copy = snapshot
  copy.clearMarkers()
  return copy
}

/// Drives a store with random transactions, undo, redo and checkout, remembering every state
/// reached live (the journal's tests replay, travel and export against those states).
///
/// ```swift
/// var driver = RandomHistoryDriver(seed: 7)
/// for _ in 0..<200 { try driver.step(store) }
/// #expect(cleared(try store.state(at: 3)) == driver.live[3])
/// ```
public struct RandomHistoryDriver {
  public var random: SeededRandom
  public var generator = ListOperationGenerator<TestSection, TestItem>(invalidProbability: 0.1, targetItemCount: 30)
  /// Live state of every version (markers cleared).
  public var live: [Int: TestSnapshot] = [0: TestSnapshot()]

  public init(seed: UInt64) { random = SeededRandom(seed: seed) }

  /// One random step; returns false when it changed nothing.
  @discardableResult
  public mutating func step(_ store: ListStore<TestSection, TestItem>) throws -> Bool {
    let roll = Int.random(in: 0..<100, using: &random)
    switch roll {
    case 0..<10:
      guard store.canUndo else { return false }
      try store.undo()
    case 10..<15:
      guard store.redoTarget != nil else { return false }
      try store.redo()
    case 15..<18:
      let target = Version(Int.random(in: 0...store.latestVersion.rawValue, using: &random))
      guard target != store.head else { return false }
      try store.checkout(target)
    default:
      let before = store.latestVersion
      var generator = self.generator
      var random = self.random
      do {
        try store.transaction(label: roll % 3 == 0 ? nil : "step \(roll)") { tx in
          for _ in 0..<Int.random(in: 1...3, using: &random) {
            let operation = generator.next(for: tx.snapshot, using: &random)
            // No transaction counterpart: a transaction starts with its markers cleared.
            if case .clearMarkers = operation { continue }
            try operation.apply(to: &tx)
          }
        }
      } catch is ListError<String, String> {
        // an invalid operation: the whole transaction is rolled back
      }
      self.generator = generator
      self.random = random
      guard store.latestVersion != before else { return false }
      live[store.head.rawValue] = cleared(store.snapshot)
    }
    return true
  }
}
