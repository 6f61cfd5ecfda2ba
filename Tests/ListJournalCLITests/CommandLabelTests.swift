import ListHistory
import ListState
import Testing

@testable import ListJournalCLI

/// The CLI labels each version with its command's undo-menu text; it must be the library's own
/// label for the same operation (`ListStore.Transaction.defaultLabel`), so a journal written by
/// the CLI and one written by an app read the same in an undo menu.
@Suite("Command labels")
struct CommandLabelTests {
  static let commands = [
    "append-sections C", "append-sections C D", "insert-sections C before A", "delete-sections A",
    "move-section B before A", "set-section A \"x\"", "reload-sections A B", "replace-section A with Z",
    "append x y to A", "append x under p", "insert x before a", "insert x y z after a", "delete a b c",
    "move a after c", "move a to B", "move a under p", "set a \"x\"", "reload a", "reconfigure a b",
    "expand p", "replace a with z", "reorder A:0 to A:3", "reorder A:0 to B:0",
  ]

  @Test(arguments: commands)
  func theCLIsLabelIsTheLibrarys(line: String) throws {
    let command = try #require(try ListCommandParser.parse(line))
    let store = ListStore<TextSection, TextItem>()
    try store.transaction(label: "setup") { tx in
      try tx.appendSections([TextSection(id: "A"), TextSection(id: "B")])
      try tx.appendItems(["a", "b", "c"].map { TextItem(id: $0) }, toSection: "A")
      try tx.appendItems([TextItem(id: "p")], toSection: "B")
      try tx.appendItems([TextItem(id: "p1")], underParent: "p")
    }
    try store.transaction { tx in
      try tx.apply(command)
      #expect(tx.defaultLabel == command.label, "\(line)")
    }
    #expect(store.info(for: store.head)?.label == command.label)
  }
}
