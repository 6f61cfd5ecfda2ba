import BenchmarkSupport

/// One generated journal: a 1,000-row list loaded in one commit, then `records` records of the
/// app's mix (``AppMix``) growing the list to `headItems` rows and holding it there, written in
/// batches or as an app writes.
struct JournalSpec: Hashable, Sendable {
  enum Writes: String, Sendable {
    /// Relaxed durability with deferred writes: many commits a chunk, the fast way to make a
    /// long history.
    case batched
    /// As an app writes: each commit made durable (grouped durability, `makeDurable`) before the
    /// next one, so each is a chunk of its own.
    case app
  }

  static let initialItems = 1_000
  static let defaultHeadItems = 10_000

  /// Records after the load: commits, and the undo and redo of the mix's pairs.
  var records: Int
  var headItems: Int
  var writes: Writes
  var seed: UInt64 = 1

  /// The file name's stem, which names everything that shapes the file.
  var name: String { "mix-\(records)-head\(headItems)-\(writes.rawValue)-seed\(seed)" }

  /// For tables: `1,000,000 commits`, `1,000,000 commits, 100,000-item head`, `…, written as an app`.
  var label: String {
    var label = "\(grouped(Double(records))) commits"
    if headItems != Self.defaultHeadItems { label += ", \(grouped(Double(headItems)))-item head" }
    if writes == .app { label += ", written as an app" }
    return label
  }

  /// The options of the `generate` subcommand that make this journal.
  var arguments: [String] {
    ["--records", "\(records)", "--head-items", "\(headItems)", "--writes", writes.rawValue, "--seed", "\(seed)"]
  }

  init(records: Int, headItems: Int = JournalSpec.defaultHeadItems, writes: Writes = .batched, seed: UInt64 = 1) {
    self.records = records
    self.headItems = headItems
    self.writes = writes
    self.seed = seed
  }

  init(_ arguments: inout Arguments) {
    records = arguments.int("records", default: 10_000)
    headItems = arguments.int("head-items", default: Self.defaultHeadItems)
    let writesName = arguments.string("writes", default: Writes.batched.rawValue)
    guard let writes = Writes(rawValue: writesName) else { Arguments.fail("--writes: batched or app, not \(writesName)") }
    self.writes = writes
    seed = UInt64(arguments.int("seed", default: 1))
  }
}
