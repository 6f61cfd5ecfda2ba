import Foundation
import ListJournal
import TestSupport
import Testing

/// A full-state checkpoint larger than the journal's record limit (a list of millions of items
/// under the default limit) is refused by the writer. The store goes on committing, and does
/// not encode the refused checkpoint again at every change: before, a 10M-event benchmark
/// slowed to about one commit a second once its list passed 1.4M items.
@Suite struct RefusedCheckpointTests {
  /// Every way a store writes: encoded and written on the committing thread; written later
  /// (deferred writes); encoded and written on a second thread (relaxed deferred writes).
  @Test(arguments: [(JournalDurability.relaxed, false), (.grouped, true), (.relaxed, true)])
  func aRefusedCheckpointIsSkippedNotRetriedAtEveryChange(durability: JournalDurability, defersWrites: Bool) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("refused.journal")
    var options = JournalOptions()
    // Commits (a few dozen bytes) fit; a checkpoint of the list below does not.
    options.limits.maxRecordPayload = 2_000
    let journal = try TextJournal.open(
      at: path,
      configuration: .init(
        durability: durability, options: options,
        store: .init(journalCheckpointBytes: 500, clock: TickingClock().closure), defersWrites: defersWrites))
    try journal.store.appendSections([TestSection("s")])
    for batch in 0..<20 {  // 20 items a commit: each commit fits the limit, the list does not
      try journal.store.appendItems((batch * 20..<batch * 20 + 20).map { TestItem("item-\($0)", content: "content \($0)") })
    }
    let commits = 600
    for step in 0..<commits {
      try journal.store.updateItem(TestItem("item-\(step % 400)", content: "edited \(step)"))
    }
    // Each refusal puts the next attempt 8× the refused size (> 16,000 bytes) of records away:
    // a few attempts over these ~600 small commits, not one per commit.
    try journal.flush()  // the background encoder has then reached every record
    let refused = journal.store._refusedCheckpoints
    #expect(refused >= 1)
    #expect(refused <= 6, "refused \(refused) checkpoints in \(commits) commits")
    let head = journal.store.snapshot
    try journal.close()
    // The journal reads back whole, without the refused checkpoints.
    var readOptions = JournalOptions()
    readOptions.limits.maxRecordPayload = 2_000
    let reopened = try TextJournal.open(at: path, configuration: .init(durability: .relaxed, options: readOptions))
    #expect(reopened.store.head == journal.store.head)
    #expect(reopened.store.snapshot == head)
    #expect(reopened.store.latestVersion.rawValue == commits + 21)
    try reopened.close()
  }
}
