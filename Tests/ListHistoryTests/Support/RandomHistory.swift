import ListHistory
import ListState
import TestSupport
import Testing

/// Drives a `ListStore<String, TestRow>` through a seeded random history — transactions of one
/// to three ``RandomOperations`` (some refused on purpose), undos, redos and checkouts of any
/// version, and, when asked, record writes that fail now and then — and keeps the live state of
/// every version it creates, for time travel, replays and folds to be checked against.
///
/// Each property test picks the mix of steps, the write failures and the checks made at every
/// step; a later `drive` continues the same history, on the same store or on one reopened from
/// its records.
///
/// ```swift
/// let sink = RecordingSink()
/// let store = RandomHistory.recordingStore(sink: sink, checkpointInterval: 5, journalCheckpointBytes: 512)
/// var history = RandomHistory(seed: 1, mix: .init(undo: 10, redo: 5, checkout: 4), checks: .all)
/// try history.drive(store, sink: sink, steps: 150)
/// for (version, expected) in history.live { #expect(Canonical(try store.state(at: Version(version))) == expected) }
/// ```
struct RandomHistory {
  typealias Store = ListStore<String, TestRow>
  typealias State = Canonical<String, TestRow>

  /// Percentages of the steps that undo, redo and check out a random version (0 through the
  /// latest); the others are transactions.
  struct Mix {
    var undo: Int
    /// How many undos an undo step makes (those past version 0 are skipped, or checked to be
    /// refused under ``Checks/stepResults``).
    var undosPerStep: ClosedRange<Int> = 1...1
    var redo: Int
    var checkout: Int
  }

  /// When the sink is told to fail the next record write (a commit or head move writing it is
  /// refused; a checkpoint is retried after a later change).
  enum WriteFailures {
    case never
    /// At each step whose number (counted over every `drive`) is `phase` modulo `period`; the
    /// failure waits for whichever later step writes a record.
    case periodic(period: Int, phase: Int)
    /// At one step in `oneIn`, at random; a step that writes nothing leaves it unused (it is
    /// withdrawn after the step).
    case random(oneIn: Int)
  }

  /// What is checked at every step.
  struct Checks: OptionSet {
    let rawValue: Int
    /// The head's state is the live state of its version after every step.
    static let liveState = Checks(rawValue: 1 << 0)
    /// Each step does what it says: an undo reverts exactly the head and undo-then-redo is the
    /// identity; an undo or redo with nothing to undo or redo throws the matching error; a
    /// checkout lands on its target; a commit's parent is the previous head.
    static let stepResults = Checks(rawValue: 1 << 1)
    /// A refused transaction or a failed write changes nothing: head, latest version, state and
    /// records are as before.
    static let refusals = Checks(rawValue: 1 << 2)
    static let all: Checks = [.liveState, .stepResults, .refusals]
  }

  let mix: Mix
  let writeFailures: WriteFailures
  let checks: Checks
  private var operations: RandomOperations
  /// The live state of every version created (version 0, the empty list, included).
  private(set) var live: [Int: State] = [0: State(ListSnapshot())]
  /// Transactions the store refused (`ListError`).
  private(set) var refusedTransactions = 0
  /// Steps refused because their record write failed.
  private(set) var failedWrites = 0
  private var stepsDriven = 0

  init(seed: UInt64, mix: Mix, writeFailures: WriteFailures = .never, checks: Checks = []) {
    operations = RandomOperations(seed: seed)
    self.mix = mix
    self.writeFailures = writeFailures
    self.checks = checks
  }

  /// A store writing its records to `sink`, its commits stamped by a deterministic clock (pass
  /// one to share it with a store reopened later).
  static func recordingStore(
    sink: RecordingSink, codec: HistoryCodec<String, TestRow> = HistoryCodec(), checkpointInterval: Int,
    checkpointBudget: CheckpointBudget = .unbounded, journalCheckpointBytes: Int, clock: ClockBox = ClockBox()
  ) -> Store {
    Store(
      codec: codec, sink: sink, checkpointInterval: checkpointInterval, checkpointBudget: checkpointBudget,
      journalCheckpointBytes: journalCheckpointBytes, clock: { clock.tick() })
  }

  /// Runs `steps` steps on `store`, whose records go to `sink` (needed by write failures and by
  /// ``Checks/refusals``); `afterStep` sees the store after each step.
  mutating func drive(_ store: Store, sink: RecordingSink? = nil, steps: Int, afterStep: (Store) -> Void = { _ in }) throws {
    for _ in 0..<steps {
      try step(store, sink: sink)
      afterStep(store)
    }
  }

  private mutating func step(_ store: Store, sink: RecordingSink?) throws {
    defer { stepsDriven += 1 }
    switch writeFailures {
    case .never: break
    case .periodic(let period, let phase): if stepsDriven % period == phase { sink?.failNext() }
    case .random(let oneIn): if Int.random(in: 0..<oneIn, using: &operations.random) == 0 { sink?.failNext() }
    }
    let before = (head: store.head, latest: store.latestVersion, state: State(store.snapshot), records: sink?.records.count)
    do {
      let roll = Int.random(in: 0..<100, using: &operations.random)
      if roll < mix.undo {
        try undo(store)
      } else if roll < mix.undo + mix.redo {
        try redo(store)
      } else if roll < mix.undo + mix.redo + mix.checkout {
        try checkout(store)
      } else {
        try store.transaction(label: "step") { tx in
          for _ in 0..<Int.random(in: 1...3, using: &operations.random) { try operations.apply(to: &tx) }
        }
      }
    } catch let error where error is ListError<String, Int> || error is RecordingSink.Failure {
      if error is RecordingSink.Failure { failedWrites += 1 } else { refusedTransactions += 1 }
      if checks.contains(.refusals) {
        // All or nothing: nothing changed, nothing persisted.
        #expect(store.head == before.head && store.latestVersion == before.latest, "refused: \(error)")
        #expect(State(store.snapshot) == before.state, "refused: \(error)")
        #expect(sink?.records.count == before.records, "refused: \(error)")
      }
    }
    if case .random = writeFailures { sink?.failNext(0) }
    if store.latestVersion != before.latest {
      if checks.contains(.stepResults) { #expect(store.info(for: store.head)?.parent == before.head) }
      live[store.head.rawValue] = State(store.snapshot)
    }
    if checks.contains(.liveState) {
      #expect(State(store.snapshot) == live[store.head.rawValue], "live state diverged at \(store.head)")
    }
  }

  private mutating func undo(_ store: Store) throws {
    for _ in 0..<Int.random(in: mix.undosPerStep, using: &operations.random) {
      guard store.canUndo else {
        if checks.contains(.stepResults) { #expect(throws: HistoryError.nothingToUndo(at: store.head)) { try store.undo() } }
        continue
      }
      guard checks.contains(.stepResults) else {
        try store.undo()
        continue
      }
      let head = store.head
      let state = State(store.snapshot)
      let change = try store.undo()
      #expect(change.reverted == [head])
      // Undo then redo is the identity; undo again to continue from the parent.
      let redo = try store.redo()
      #expect(redo.head == head)
      #expect(State(store.snapshot) == state)
      try store.undo()
    }
  }

  private mutating func redo(_ store: Store) throws {
    if store.redoTarget != nil {
      try store.redo()
    } else if checks.contains(.stepResults) {
      #expect(throws: HistoryError.nothingToRedo(at: store.head)) { try store.redo() }
    }
  }

  private mutating func checkout(_ store: Store) throws {
    let target = Version(Int.random(in: 0...store.latestVersion.rawValue, using: &operations.random))
    let change = try store.checkout(target)
    if checks.contains(.stepResults) { #expect(change.head == target && store.head == target) }
  }
}
