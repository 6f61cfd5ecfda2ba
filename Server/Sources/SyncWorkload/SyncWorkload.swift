import ListReplica
import ListState

/// The mixed workload of the sync tests and benchmark: one random operation per commit on an
/// outline list in two sections — appends, inserts, children, deletes, moves (also under a new
/// parent), value changes, expand and collapse — each valid on the replica's current state.
///
/// ```swift
/// var workload = SyncWorkload(seed: 7, client: 3)
/// let replica = ListReplica<String, SyncRow>(listID: 1, base: SyncWorkload.base(items: 20))
/// try workload.edit(replica)   // one commit
/// ```
///
/// - Complexity: O(items) per edit (a random item is drawn from the snapshot's identifiers).
public struct SyncWorkload: Sendable {
  public static let sections = ["Inbox", "Later"]

  public var random: SyncWorkloadRandom
  public let client: Int
  private var made = 0

  public init(seed: UInt64, client: Int) {
    random = SyncWorkloadRandom(seed: seed &+ UInt64(client) &* 0x1_0000_0001)
    self.client = client
  }

  /// Two sections with `items` rows spread over them.
  public static func base(items: Int) -> ListSnapshot<String, SyncRow> {
    var snapshot = ListSnapshot<String, SyncRow>()
    try! snapshot.appendSections(sections)
    for index in 0..<items {
      try! snapshot.appendItems([SyncRow(id: "b\(index)", value: "v\(index)")], toSection: sections[index % 2])
    }
    return snapshot
  }

  /// Makes one commit on `replica` with one random operation (labelled `label`).
  public mutating func edit(_ replica: ListReplica<String, SyncRow>, label: String? = nil) throws {
    let ids = replica.snapshot.itemIdentifiers
    let choice = ids.count < 4 ? 0 : Int.random(in: 0..<100, using: &random)
    let first = ids.isEmpty ? nil : ids.randomElement(using: &random)
    let second = ids.isEmpty ? nil : ids.randomElement(using: &random)
    let section = Self.sections.randomElement(using: &random)!
    made += 1
    let row = SyncRow(id: "c\(client)-\(made)", value: "v\(made)")
    let value = "w\(Int.random(in: 0..<1_000_000, using: &random))"
    do {
      try replica.transaction(label: label) { tx in
        switch (choice, first, second) {
        case (0..<20, _, _), (_, nil, _), (_, _, nil): try tx.appendItems([row], toSection: section)
        case (20..<35, let a?, _): try tx.insertItems([row], afterItem: a)
        case (35..<45, let a?, _): try tx.appendItems([row], underParent: a)
        case (45..<55, let a?, _): try tx.deleteItems([a])
        case (55..<70, let a?, let b?) where a != b: try tx.moveItem(a, afterItem: b)
        case (70..<75, let a?, let b?) where a != b: try tx.moveItem(a, underParent: b)
        case (75..<95, let a?, _):
          var changed = tx.snapshot.item(a)!
          changed.value = value
          try tx.updateItem(changed)
        case (95..<98, let a?, _): try tx.expand([a])
        case (_, let a?, _): try tx.collapse([a])
        }
      }
    } catch {
      // A move under its own descendant and the like: append instead, so every edit commits.
      try replica.transaction(label: label) { tx in try tx.appendItems([row], toSection: section) }
    }
  }
}
