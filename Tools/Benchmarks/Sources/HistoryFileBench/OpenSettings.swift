import ListJournal

/// How the measurements open a journal: the library's defaults (`JournalStoreConfiguration()`)
/// with what the command line changes. The run forwards these options to every measurement's
/// process, so a new configuration field needs its option here and nowhere else.
///
/// ```
/// HistoryFileBench --checkpoint-budget-mb 8     # every open with an 8 MiB checkpoint budget
/// ```
struct OpenSettings: Sendable {
  /// `--checkpoint-budget-mb N`: the store's in-memory checkpoint budget (0: only version 0's).
  var checkpointBudgetMegabytes: Int?
  /// `--durability strict|grouped|relaxed` for the commits the measurements make.
  var durability: String?

  init(_ arguments: inout Arguments) {
    if arguments.string("checkpoint-budget-mb") != nil {
      checkpointBudgetMegabytes = arguments.int("checkpoint-budget-mb", default: 0)
    }
    durability = arguments.string("durability")
    if let durability, Self.durabilities[durability] == nil { Arguments.fail("--durability: not a mode: \(durability)") }
  }

  private static let durabilities: [String: JournalDurability] = [
    "strict": .strict, "grouped": .grouped, "relaxed": .relaxed,
  ]

  /// The options that recreate these settings in another process.
  var arguments: [String] {
    var arguments: [String] = []
    if let checkpointBudgetMegabytes { arguments += ["--checkpoint-budget-mb", "\(checkpointBudgetMegabytes)"] }
    if let durability { arguments += ["--durability", durability] }
    return arguments
  }

  /// For a report's header: what differs from the library's defaults.
  var summary: String { arguments.isEmpty ? "the library's defaults" : arguments.joined(separator: " ") }

  func configuration() -> JournalStoreConfiguration {
    var configuration = JournalStoreConfiguration()
    if let checkpointBudgetMegabytes { configuration.store.checkpointBudget = .bytes(checkpointBudgetMegabytes << 20) }
    if let durability { configuration.durability = Self.durabilities[durability]! }
    return configuration
  }
}
