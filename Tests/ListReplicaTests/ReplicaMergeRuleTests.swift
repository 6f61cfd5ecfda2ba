import ListHistory
import ListReplica
import ListState
import TestSupport
import Testing

/// One example per merge rule (the cases of the Merging article, whose examples these are):
/// two or three replicas of a small list make concurrent edits, exchange everything, and every
/// replica shows the list the rule gives and the override it records.
///
/// Replica 1 is "phone", replica 2 "laptop": their concurrent commits have the same Lamport
/// clock, so the phone's sorts first in the agreed order and the laptop's is applied on top.
@Suite struct ReplicaMergeRuleTests {
  typealias Replica = ListReplica<String, String>
  typealias Override = ReplicaOverride<String, String>

  static let configuration = ListReplicaConfiguration(clock: { 1_800_000_000 })

  /// Replicas 1…count of a list of strings that `setup` (a commit of replica 1) filled.
  static func replicas(_ count: Int = 2, _ setup: (inout Replica.Transaction) throws -> Void) throws -> [Replica] {
    try replicas(count, of: String.self, setup)
  }

  /// Replicas 1…count of one list that `setup` (a commit of replica 1) filled.
  static func replicas<Item: ListElement>(
    _ count: Int = 2, of: Item.Type, _ setup: (inout ListReplica<String, Item>.Transaction) throws -> Void
  ) throws -> [ListReplica<String, Item>] {
    let first = ListReplica<String, Item>(replica: ReplicaID(rawValue: 1), listID: 7, configuration: configuration)
    try first.transaction(setup)
    return [first]
      + (2...count).map { ListReplica<String, Item>(cloning: first, replica: ReplicaID(rawValue: UInt64($0)), configuration: configuration) }
  }

  /// Makes a commit and returns its identity.
  static func edit<Item: ListElement>(
    _ replica: ListReplica<String, Item>, _ body: (inout ListReplica<String, Item>.Transaction) throws -> Void
  ) throws -> ReplicaCommitID {
    try replica.transaction(body)
    return replica.commits.last!.id
  }

  /// Every replica receives everything from every other one.
  static func exchange<Item: ListElement>(_ replicas: [ListReplica<String, Item>]) throws {
    for target in replicas {
      for source in replicas where source !== target { try target.receive(source.changes(since: target.versionVector)) }
    }
    for target in replicas {
      for source in replicas where source !== target { try target.receive(source.changes(since: target.versionVector)) }
    }
  }

  /// `Fruit: Apple Pear(Seed) | Veg: Leek` — children in parentheses, expanded ones marked `+`.
  static func drawing<Item: ListElement>(_ snapshot: ListSnapshot<String, Item>) -> String {
    func draw(_ nodes: [ListOutline<Item>.Node]) -> String {
      nodes.map { node in
        (node.isExpanded ? "+" : "") + "\(node.item)" + (node.children.isEmpty ? "" : "(" + draw(node.children) + ")")
      }.joined(separator: " ")
    }
    return snapshot.sections.map { section in
      let roots = snapshot.outline(ofSection: section)?.roots ?? []
      return roots.isEmpty ? "\(section):" : "\(section): " + draw(roots)
    }.joined(separator: " | ")
  }

  /// Every replica shows `list` and records exactly `overrides`.
  static func expectMerged<Item: ListElement>(
    _ replicas: [ListReplica<String, Item>], _ list: String, _ overrides: [ReplicaOverride<String, Item>],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for replica in replicas {
      #expect(drawing(replica.snapshot) == list, "replica \(replica.replicaID)", sourceLocation: sourceLocation)
      #expect(replica.overrides() == overrides, "replica \(replica.replicaID)", sourceLocation: sourceLocation)
    }
  }

  static let fruit = ["Apple", "Pear", "Plum"]

  // MARK: Inserts whose place is gone

  @Test func insertNextToADeletedAnchorFollowsItsNearestSurvivingNeighbour() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteItems(["Pear"]) }
    let insert = try Self.edit(laptop) { try $0.insertItems(["Kiwi"], afterItem: "Pear") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Kiwi Plum", [Override(commit: insert, operation: 0, subject: .item("Kiwi"), reason: .anchorDeleted)])
  }

  @Test func insertAfterAChainOfDeletedNeighboursGoesFirst() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteItems(["Pear"]); try $0.deleteItems(["Apple"]) }
    let insert = try Self.edit(laptop) { try $0.insertItems(["Kiwi"], afterItem: "Pear") }
    try Self.exchange(replicas)
    // Pear followed Apple, which was first: Kiwi goes first.
    Self.expectMerged(replicas, "Fruit: Kiwi Plum", [Override(commit: insert, operation: 0, subject: .item("Kiwi"), reason: .anchorDeleted)])
  }

  @Test func insertNextToAMovedAnchorFollowsIt() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.moveItem("Apple", afterItem: "Plum") }
    _ = try Self.edit(laptop) { try $0.insertItems(["Kiwi"], afterItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Pear Plum Apple Kiwi", [])
  }

  @Test func insertUnderADeletedParentGoesWhereTheParentWas() throws {
    let replicas = try Self.replicas {
      try $0.appendSections(["Fruit"])
      try $0.appendItems(["Apple", "Pear"])
      try $0.appendItems(["Seed"], underParent: "Apple")
    }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteItems(["Apple"]) }
    let insert = try Self.edit(laptop) { try $0.appendItems(["Core"], underParent: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Core Pear", [Override(commit: insert, operation: 0, subject: .item("Core"), reason: .containerDeleted)])
  }

  @Test func insertIntoADeletedSectionGoesToTheEndOfTheSectionBefore() throws {
    let replicas = try Self.replicas {
      try $0.appendSections(["Fruit", "Veg"])
      try $0.appendItems(["Apple"], toSection: "Fruit")
      try $0.appendItems(["Leek"], toSection: "Veg")
    }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteSections(["Veg"]) }
    let insert = try Self.edit(laptop) { try $0.appendItems(["Kale"], toSection: "Veg") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Kale", [Override(commit: insert, operation: 0, subject: .item("Kale"), reason: .containerDeleted)])
  }

  @Test func insertWhenNoSectionIsLeftIsDropped() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteSections(["Fruit"]) }
    let insert = try Self.edit(laptop) { try $0.insertItems(["Kiwi"], afterItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "", [Override(commit: insert, operation: 0, subject: .item("Kiwi"), reason: .noPlace)])
  }

  // MARK: Deleted subjects

  @Test func deleteOfWhatIsGoneDoesNothing() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteItems(["Pear"]) }
    let delete = try Self.edit(laptop) { try $0.deleteItems(["Pear"]) }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Plum", [Override(commit: delete, operation: 0, subject: .item("Pear"), reason: .alreadyDeleted)])
  }

  @Test func moveOfADeletedItemDoesNothing() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteItems(["Pear"]) }
    let move = try Self.edit(laptop) { try $0.moveItem("Pear", beforeItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Plum", [Override(commit: move, operation: 0, subject: .item("Pear"), reason: .alreadyDeleted)])
  }

  @Test func updateOfADeletedItemDoesNothing() throws {
    let replicas = try Self.replicas(of: TestItem.self) {
      try $0.appendSections(["Fruit"])
      try $0.appendItems([TestItem("Apple"), TestItem("Pear")])
    }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteItems(["Pear"]) }
    let update = try Self.edit(laptop) { try $0.updateItem(TestItem("Pear", content: "ripe")) }
    try Self.exchange(replicas)
    Self.expectMerged(
      replicas, "Fruit: Apple", [ReplicaOverride(commit: update, operation: 0, subject: .item("Pear"), reason: .alreadyDeleted)])
  }

  // MARK: Concurrent changes of one thing

  @Test func concurrentMovesOfOneItemTheLaterInTheOrderWins() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    let first = try Self.edit(phone) { try $0.moveItem("Plum", beforeItem: "Apple") }
    let second = try Self.edit(laptop) { try $0.moveItem("Plum", afterItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(
      replicas, "Fruit: Apple Plum Pear", [Override(commit: first, operation: 0, subject: .item("Plum"), reason: .superseded(by: second))])
  }

  @Test func aLaterMoveByTheSameReplicaIsNoOverride() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let phone = replicas[0]
    _ = try Self.edit(phone) { try $0.moveItem("Plum", beforeItem: "Apple") }
    _ = try Self.edit(phone) { try $0.moveItem("Plum", afterItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Plum Pear", [])
  }

  @Test func aMoveThatWouldCreateACycleIsNotMade() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["A", "B"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.moveItem("A", underParent: "B") }
    let cycle = try Self.edit(laptop) { try $0.moveItem("B", underParent: "A") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: B(A)", [Override(commit: cycle, operation: 0, subject: .item("B"), reason: .cycle)])
  }

  @Test func concurrentContentUpdatesTheLaterInTheOrderWins() throws {
    let replicas = try Self.replicas(of: TestItem.self) {
      try $0.appendSections(["Fruit"])
      try $0.appendItems([TestItem("Apple")])
    }
    let (phone, laptop) = (replicas[0], replicas[1])
    let red = try Self.edit(phone) { try $0.updateItem(TestItem("Apple", content: "red")) }
    let green = try Self.edit(laptop) { try $0.updateItem(TestItem("Apple", content: "green")) }
    try Self.exchange(replicas)
    Self.expectMerged(
      replicas, "Fruit: Apple[green]", [ReplicaOverride(commit: red, operation: 0, subject: .item("Apple"), reason: .superseded(by: green))])
  }

  @Test func aDeleteLaterInTheOrderOverridesAConcurrentChangeOfTheItem() throws {
    let replicas = try Self.replicas(of: TestItem.self) {
      try $0.appendSections(["Fruit"])
      try $0.appendItems([TestItem("Apple"), TestItem("Pear")])
    }
    let (phone, laptop) = (replicas[0], replicas[1])
    let rename = try Self.edit(phone) { try $0.updateItem(TestItem("Pear", content: "Conference")) }
    let delete = try Self.edit(laptop) { try $0.deleteItems(["Pear"]) }
    try Self.exchange(replicas)
    Self.expectMerged(
      replicas, "Fruit: Apple", [ReplicaOverride(commit: rename, operation: 0, subject: .item("Pear"), reason: .superseded(by: delete))])
  }

  @Test func concurrentRenamesOfASectionTheFirstInTheOrderWins() throws {
    let replicas = try Self.replicas(of: String.self) { try $0.appendSections(["Fruit"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.replaceSection("Fruit", with: "Fruits") }
    let rename = try Self.edit(laptop) { try $0.replaceSection("Fruit", with: "Fresh") }
    try Self.exchange(replicas)
    // A new identifier is a replace: the first in the order renames, the later finds it gone.
    Self.expectMerged(replicas, "Fruits:", [Override(commit: rename, operation: 0, subject: .section("Fruit"), reason: .alreadyDeleted)])
  }

  @Test func expandOnOneReplicaCollapseOnAnotherTheLaterWins() throws {
    let replicas = try Self.replicas {
      try $0.appendSections(["Fruit"])
      try $0.appendItems(["Apple"])
      try $0.appendItems(["Seed"], underParent: "Apple")
      try $0.expand(["Apple"])
    }
    let (phone, laptop) = (replicas[0], replicas[1])
    let collapse = try Self.edit(phone) { try $0.collapse(["Apple"]) }
    _ = try Self.edit(phone) { try $0.expand(["Apple"]) }
    let laptopCollapse = try Self.edit(laptop) { try $0.collapse(["Apple"]) }
    try Self.exchange(replicas)
    // Phone: collapse (clock 2), expand (clock 3); laptop: collapse (clock 2). The order is
    // phone's collapse, laptop's collapse, phone's expand: the expand wins and supersedes the
    // laptop's collapse; the phone's own earlier collapse was replaced by a later concurrent one.
    let expand = phone.commits.first { $0.id.replica == phone.replicaID && $0.id.sequence == 3 }!.id
    Self.expectMerged(
      replicas, "Fruit: +Apple(Seed)",
      [
        Override(commit: collapse, operation: 0, subject: .item("Apple"), reason: .superseded(by: laptopCollapse)),
        Override(commit: laptopCollapse, operation: 0, subject: .item("Apple"), reason: .superseded(by: expand)),
      ])
  }

  // MARK: One identifier created twice

  @Test func theSameItemCreatedOnTwoReplicasKeepsTheFirstInTheOrder() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.appendItems(["Kiwi"]) }
    let twin = try Self.edit(laptop) { try $0.insertItems(["Kiwi"], beforeItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(
      replicas, "Fruit: Apple Pear Plum Kiwi", [Override(commit: twin, operation: 0, subject: .item("Kiwi"), reason: .duplicateIdentifier)])
  }

  @Test func theSameSectionCreatedOnTwoReplicasKeepsTheFirstInTheOrder() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.appendSections(["Veg"]); try $0.appendItems(["Leek"], toSection: "Veg") }
    let twin = try Self.edit(laptop) { try $0.insertSections(["Veg"], beforeSection: "Fruit"); try $0.appendItems(["Kale"], toSection: "Veg") }
    try Self.exchange(replicas)
    // The laptop's transaction is two operations: the section (a duplicate) and Kale, which
    // then goes into the phone's Veg (its anchor, the section's start, exists).
    Self.expectMerged(
      replicas, "Fruit: | Veg: Kale Leek",
      [Override(commit: twin, operation: 0, subject: .section("Veg"), reason: .duplicateIdentifier)])
  }

  @Test func anInsertAfterAReplacedItemFollowsTheNewOne() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple", "Pear"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.replaceItem("Apple", with: "Apricot") }
    let insert = try Self.edit(laptop) { try $0.insertItems(["Kiwi"], afterItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apricot Kiwi Pear", [Override(commit: insert, operation: 0, subject: .item("Kiwi"), reason: .anchorDeleted)])
  }

  @Test func anInsertUnderAReplacedItemGoesUnderTheNewOne() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple", "Pear"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.replaceItem("Apple", with: "Apricot") }
    _ = try Self.edit(laptop) { try $0.appendItems(["Seed"], underParent: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apricot(Seed) Pear", [])
  }

  @Test func anInsertIntoAReplacedSectionGoesIntoTheNewOne() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple", "Pear"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.replaceSection("Fruit", with: "Fruits") }
    _ = try Self.edit(laptop) { try $0.insertItems(["Kiwi"], beforeItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruits: Kiwi Apple Pear", [])
  }

  // MARK: Deletes and concurrent additions

  @Test func aDeleteKeepsChildrenAddedConcurrently() throws {
    let replicas = try Self.replicas {
      try $0.appendSections(["Fruit"])
      try $0.appendItems(["Apple", "Pear"])
      try $0.appendItems(["Seed"], underParent: "Apple")
    }
    // Here the laptop is replica 1: its insert sorts first, the phone's delete finds Core.
    let (laptop, phone) = (replicas[0], replicas[1])
    _ = try Self.edit(laptop) { try $0.appendItems(["Core"], underParent: "Apple") }
    let delete = try Self.edit(phone) { try $0.deleteItems(["Apple"]) }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Core Pear", [Override(commit: delete, operation: 0, subject: .item("Core"), reason: .keptFromDeletion)])
  }

  @Test func aDeleteKeepsNestedChildrenAddedConcurrentlyInListOrder() throws {
    let replicas = try Self.replicas {
      try $0.appendSections(["Fruit"])
      try $0.appendItems(["Apple", "Pear"])
      try $0.appendItems(["Seed", "Skin"], underParent: "Apple")
    }
    let (laptop, phone) = (replicas[0], replicas[1])
    _ = try Self.edit(laptop) {
      try $0.appendItems(["Germ"], underParent: "Seed")
      try $0.appendItems(["Wax"], underParent: "Skin")
      try $0.appendItems(["Core"], underParent: "Apple")
    }
    let delete = try Self.edit(phone) { try $0.deleteItems(["Apple"]) }
    try Self.exchange(replicas)
    Self.expectMerged(
      replicas, "Fruit: Germ Wax Core Pear",
      ["Germ", "Wax", "Core"].map { Override(commit: delete, operation: 0, subject: .item($0), reason: .keptFromDeletion) })
  }

  @Test func aSectionDeleteKeepsItemsAddedConcurrently() throws {
    let replicas = try Self.replicas {
      try $0.appendSections(["Fruit", "Veg"])
      try $0.appendItems(["Apple"], toSection: "Fruit")
      try $0.appendItems(["Leek"], toSection: "Veg")
    }
    let (laptop, phone) = (replicas[0], replicas[1])
    _ = try Self.edit(laptop) { try $0.appendItems(["Kale"], toSection: "Veg") }
    let delete = try Self.edit(phone) { try $0.deleteSections(["Veg"]) }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Kale", [Override(commit: delete, operation: 0, subject: .item("Kale"), reason: .keptFromDeletion)])
  }

  @Test func aSectionDeleteWithNoOtherSectionRecordsTheItemsItCouldNotKeep() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple"]) }
    let (laptop, phone) = (replicas[0], replicas[1])
    _ = try Self.edit(laptop) { try $0.appendItems(["Kiwi"]) }
    let delete = try Self.edit(phone) { try $0.deleteSections(["Fruit"]) }
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "", [Override(commit: delete, operation: 0, subject: .item("Kiwi"), reason: .noPlace)])
  }

  // MARK: Undo and redo

  @Test func undoNeverUndoesARemoteEdit() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    try Self.exchange(replicas)
    _ = try Self.edit(laptop) { try $0.appendItems(["Fig"]) }
    try Self.exchange(replicas)
    _ = try Self.edit(phone) { try $0.appendItems(["Kiwi"]) }
    try Self.exchange(replicas)
    try phone.undo()
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Fig", [])
    // Nothing of the laptop's is on the phone's undo stack (only its own setup commit is left).
    #expect(phone.undoLabel == phone.commits[0].label)
    #expect(!laptop.canRedo)
  }

  @Test func undoLeavesAnItemSomeoneElseDeletedDeleted() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.moveItem("Pear", beforeItem: "Apple") }
    try Self.exchange(replicas)
    _ = try Self.edit(laptop) { try $0.deleteItems(["Pear"]) }
    try Self.exchange(replicas)
    try phone.undo()
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Plum", [])
  }

  @Test func undoOfAnInsertKeepsWhatSomeoneElseAddedUnderIt() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.appendItems(["Basket", "Pear"]); try $0.appendItems(["Fig"], underParent: "Basket") }
    try Self.exchange(replicas)
    _ = try Self.edit(laptop) { try $0.appendItems(["Kiwi"], underParent: "Basket") }
    try Self.exchange(replicas)
    let undo = try #require(try phone.undo())
    try Self.exchange(replicas)
    // The phone's Basket, Fig and Pear go; the laptop's Kiwi stays where Basket was.
    // The undo's operations: delete Fig, Pear, then Basket (the inserts inverted, newest first).
    Self.expectMerged(replicas, "Fruit: Apple Kiwi", [Override(commit: undo, operation: 2, subject: .item("Kiwi"), reason: .keptFromDeletion)])
  }

  @Test func undoOfASectionInsertKeepsWhatSomeoneElseAddedToIt() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(["Apple"]) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.appendSections(["Veg"]); try $0.appendItems(["Leek"], toSection: "Veg") }
    try Self.exchange(replicas)
    _ = try Self.edit(laptop) { try $0.appendItems(["Kale"], toSection: "Veg") }
    try Self.exchange(replicas)
    let undo = try #require(try phone.undo())
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Kale", [Override(commit: undo, operation: 1, subject: .item("Kale"), reason: .keptFromDeletion)])
    // Redo brings back the phone's section and Leek, not a second Kale.
    try phone.redo()
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Kale | Veg: Leek", [Override(commit: undo, operation: 1, subject: .item("Kale"), reason: .keptFromDeletion)])
  }

  @Test func undoKeepsContentSomeoneElseChanged() throws {
    let replicas = try Self.replicas(of: TestItem.self) {
      try $0.appendSections(["Fruit"])
      try $0.appendItems([TestItem("Apple"), TestItem("Pear")])
    }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) {
      try $0.updateItem(TestItem("Apple", content: "red"))
      try $0.updateItem(TestItem("Pear", content: "ripe"))
    }
    try Self.exchange(replicas)
    _ = try Self.edit(laptop) { try $0.updateItem(TestItem("Apple", content: "green")) }
    try Self.exchange(replicas)
    try phone.undo()
    try Self.exchange(replicas)
    // Apple keeps the laptop's later change; Pear, still the phone's, goes back.
    Self.expectMerged(replicas, "Fruit: Apple[green] Pear", [])
  }

  @Test func undoOfADeleteRestoresTheItemNextToItsSurvivingNeighbour() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.deleteItems(["Pear"]) }
    try Self.exchange(replicas)
    _ = try Self.edit(laptop) { try $0.deleteItems(["Apple"]) }
    try Self.exchange(replicas)
    let undo = try #require(try phone.undo())
    try Self.exchange(replicas)
    // Pear followed Apple, which the laptop deleted since: it comes back first.
    Self.expectMerged(replicas, "Fruit: Pear Plum", [Override(commit: undo, operation: 0, subject: .item("Pear"), reason: .anchorDeleted)])
  }

  @Test func redoMakesTheEditAgainAsANewCommit() throws {
    let replicas = try Self.replicas { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    let (phone, laptop) = (replicas[0], replicas[1])
    _ = try Self.edit(phone) { try $0.moveItem("Plum", beforeItem: "Apple") }
    try phone.undo()
    try Self.exchange(replicas)
    Self.expectMerged(replicas, "Fruit: Apple Pear Plum", [])
    _ = try Self.edit(laptop) { try $0.deleteItems(["Apple"]) }
    try Self.exchange(replicas)
    let redo = try #require(try phone.redo())
    try Self.exchange(replicas)
    // The redo moves Plum first again; its commit syncs like any other.
    Self.expectMerged(replicas, "Fruit: Plum Pear", [])
    #expect(laptop.holds(redo))
    #expect(phone.commits.last?.origin == .redo(of: ReplicaCommitID(replica: phone.replicaID, sequence: 3)))
    #expect(phone.canUndo && !phone.canRedo)
  }

  @Test func concurrentEditsOfThreeReplicasMergeAlike() throws {
    let replicas = try Self.replicas(3) { try $0.appendSections(["Fruit"]); try $0.appendItems(Self.fruit) }
    _ = try Self.edit(replicas[0]) { try $0.deleteItems(["Pear"]) }
    let insert = try Self.edit(replicas[1]) { try $0.insertItems(["Kiwi"], afterItem: "Pear") }
    let move = try Self.edit(replicas[2]) { try $0.moveItem("Pear", beforeItem: "Apple") }
    try Self.exchange(replicas)
    Self.expectMerged(
      replicas, "Fruit: Apple Kiwi Plum",
      [
        Override(commit: insert, operation: 0, subject: .item("Kiwi"), reason: .anchorDeleted),
        Override(commit: move, operation: 0, subject: .item("Pear"), reason: .alreadyDeleted),
      ])
  }
}
