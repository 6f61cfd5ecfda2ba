import Foundation
import ListJournal
import Testing

/// The read-only subcommands read a journal written by any app, with its own element types,
/// decoded generically: strings print as themselves, other values as compact JSON.
@Suite("journals written by other apps")
struct ForeignJournalTests {
  /// An app's row: an `Int` identifier and several fields.
  struct Task: ListElement, Codable {
    var id: Int
    var title: String
    var done: Bool
  }

  /// Writes, through the library, a journal of `Int` sections and `Task` items.
  static func writeJournal(at path: String) throws {
    let journal = try JournalStore<Int, Task>.open(
      at: path,
      configuration: .init(durability: .strict, store: .init(clock: { 1_700_000_000 })))
    try journal.store.transaction(label: "Board") { tx in
      try tx.appendSections([2024, 2025])
      try tx.appendItems([Task(id: 1, title: "Milk", done: false), Task(id: 2, title: "Eggs", done: true)], toSection: 2025)
      try tx.appendItems([Task(id: 3, title: "Brown \"free range\"", done: false)], underParent: 2)
      try tx.expand([2])
    }
    try journal.store.transaction(label: "Done") { tx in
      try tx.updateItem(Task(id: 1, title: "Milk", done: true))
      try tx.moveItem(1, toSection: 2024)
    }
    try journal.close()
  }

  @Test func showLogAndDiffRenderAnotherAppsElements() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Self.writeJournal(at: directory.appendingPathComponent("app.journal").path)

    let show = try CLIRunner.run(["show", "app.journal"], in: directory)
    #expect(
      show
        == .init(
          stdout: """
            version 2
            2024
              • 1 "{\\"title\\":\\"Milk\\",\\"done\\":true}"
            2025
              ▾ 2 "{\\"title\\":\\"Eggs\\",\\"done\\":true}"
                • 3 "{\\"title\\":\\"Brown \\\\\\"free range\\\\\\"\\",\\"done\\":false}"

            """, stderr: "", status: 0))

    let json = try CLIRunner.run(["show", "app.journal", "--at", "1", "--format", "json"], in: directory)
    #expect(
      json.stdout == """
        {"version": 1, "sections": [{"id": "2024", "content": "", "items": []}, {"id": "2025", "content": "", "items": [\
        {"id": "1", "content": "{\\"title\\":\\"Milk\\",\\"done\\":false}", "expanded": false, "children": []}, \
        {"id": "2", "content": "{\\"title\\":\\"Eggs\\",\\"done\\":true}", "expanded": true, "children": [\
        {"id": "3", "content": "{\\"title\\":\\"Brown \\\\\\"free range\\\\\\"\\",\\"done\\":false}", "expanded": false, "children": []}]}]}]}

        """)

    // `ops` counts what changed: 2 sections, 3 items (1 and 2 in one event), 1 expand.
    let log = try CLIRunner.run(["log", "app.journal", "--format", "json"], in: directory)
    #expect(
      log.stdout == """
        [{"version": 0, "parent": null, "head": false, "label": "", "ops": 0}, \
        {"version": 1, "parent": 0, "head": false, "label": "Board", "ops": 6}, \
        {"version": 2, "parent": 1, "head": true, "label": "Done", "ops": 2}]

        """)
    let text = try CLIRunner.run(["log", "app.journal"], in: directory)
    #expect(text.stdout.hasSuffix("* 2  ← 1  2023-11-14T22:13:20Z  Done  (2 ops: set 1; move 1)\n"))
    #expect(text.stdout.contains("  1  ← 0  2023-11-14T22:13:20Z  Board  (6 ops: insert section 2024; insert section 2025; insert 1 2; insert 3; … 1 more)\n"))

    let diff = try CLIRunner.run(["diff", "app.journal", "1", "2"], in: directory)
    // Task 1 moved to another section and changed: a move, then a reload (UIKit's two stages).
    #expect(diff == .init(stdout: "diff 1 → 2\nstage 1\n→ moved 1\nstage 2\n~ reloaded 1\n", stderr: "", status: 0))
    let back = try CLIRunner.run(["diff", "app.journal", "head", "head~1", "--format", "json"], in: directory)
    #expect(back.status == 0)
    #expect(back.stdout.hasPrefix(#"{"from": 2, "to": 1, "stages": ["#))

    for command in ["replay", "verify", "info"] {
      let result = try CLIRunner.run([command, "app.journal"], in: directory)
      #expect(result.status == 0, "\(command): \(result.stderr)")
    }
    #expect(try CLIRunner.run(["replay", "app.journal"], in: directory).stdout.contains("state at version 2: 2 sections, 3 items\n"))
    // Writing needs the CLI's own element types: exec refuses the journal, saying why.
    let exec = try CLIRunner.run(["exec", "app.journal"], stdin: "append-sections X\n", in: directory)
    #expect(exec.status == 1)
    #expect(
      exec.stderr == "error: 'app.journal' was written by another app, whose elements are not the CLI's text elements: "
        + "show, log, diff, export, replay, info and verify read it, but exec and repl cannot edit it\n")
    let dryRun = try CLIRunner.run(["exec", "app.journal", "--dry-run"], stdin: "append-sections X\n", in: directory)
    #expect(dryRun.status == 1)
    #expect(dryRun.stderr == exec.stderr)
  }

  @Test func displayRulesForGenericValues() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("plain.journal").path
    // String sections and String items: elements that are their own identifiers have no content.
    let journal = try JournalStore<String, String>.open(
      at: path,
      configuration: .init(durability: .strict, store: .init(clock: { 1_700_000_000 })))
    try journal.store.transaction { tx in
      try tx.appendSections(["Inbox"])
      try tx.appendItems(["buy milk", "call Ada"])
    }
    try journal.close()
    let show = try CLIRunner.run(["show", "plain.journal"], in: directory)
    #expect(show.stdout == "version 1\nInbox\n  • \"buy milk\"\n  • \"call Ada\"\n")
  }

  /// A record that passes its checksum but does not replay: every read-only command names it
  /// by sequence, version and the byte offset of its frame.
  @Test func aRecordThatDoesNotReplayIsNamed() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("app.journal").path
    try Self.writeJournal(at: path)
    let writer = try JournalWriter.open(at: path)
    let receipt = try writer.append(
      JournalRecord(kind: .init(rawValue: HistoryRecord.Kind.commit.rawValue), version: 3, payload: [0xFF, 0xFF]))
    try writer.close()
    let reader = try JournalReader.open(at: path)
    let frame = try #require(reader.frames.last { $0.firstSequence <= receipt.sequence })
    let expected =
      "error: bad journal 'app.journal': record #\(receipt.sequence) (version 3) in the frame at byte offset \(frame.offset) does not replay: "
    for command in [["show"], ["log"], ["diff", "1", "2"], ["replay"], ["info"]] {
      let result = try CLIRunner.run([command[0], "app.journal"] + command.dropFirst(), in: directory)
      #expect(result.status == 1, "\(command)")
      #expect(result.stdout.isEmpty, "\(command)")
      #expect(result.stderr.hasPrefix(expected), "\(command): \(result.stderr)")
    }
  }

  /// Identifiers that differ as values but display as the same text (the string "7" and the
  /// number 7) cannot be shown apart: `show` says so, naming the section; versions before the
  /// clash still show, and `log` still reads the journal.
  @Test func identifiersThatDisplayAlikeAreNamed() throws {
    let directory = try CLIRunner.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("clash.journal").path
    let journal = try JournalStore<JournalValueElement, JournalValueElement>.open(
      at: path, codec: .generic(),
      configuration: .init(durability: .strict, store: .init(clock: { 1_700_000_000 })))
    try journal.store.transaction { tx in
      try tx.appendSections([JournalValueElement(.string("Inbox"))])
      try tx.appendItems([JournalValueElement(.string("7"))])
    }
    try journal.store.transaction { tx in try tx.appendItems([JournalValueElement(.int(7))]) }
    try journal.close()
    let show = try CLIRunner.run(["show", "clash.journal"], in: directory)
    #expect(show.status == 1)
    #expect(show.stderr.hasPrefix("error: two items display as the same text in section 'Inbox'"), "\(show.stderr)")
    let before = try CLIRunner.run(["show", "clash.journal", "--at", "1"], in: directory)
    #expect(before == .init(stdout: "version 1\nInbox\n  • 7\n", stderr: "", status: 0))
    // `log` shows no state, so the clash does not stop it.
    #expect(try CLIRunner.run(["log", "clash.journal"], in: directory).status == 0)
  }
}
