import ListHistory
import ListState

/// A naive model of the replica merge rules: it folds a base list and a set of commits in the
/// agreed order (Lamport clock, replica, sequence), applying each operation by identifier and,
/// where its precondition no longer holds, the one documented rule for the case; it returns
/// the list and the overrides those rules recorded.
///
/// It shares nothing with the engine but the commit types: sections are an array, items a
/// table of records with child arrays, every lookup a linear search or a dictionary read,
/// tombstones and last writers plain dictionaries. Property tests compare a replica's merged
/// list and overrides with the fold of its commits.
///
/// ```swift
/// let fold = ReferenceReplicaFold(base: replica.base, commits: replica.commits)
/// fold.list == ReferenceList(replica.snapshot)   // the merged list, by the rules
/// fold.overrides                                 // what the rules transformed, in order
/// ```
///
/// - Complexity: O(n) per operation and more; that is the point.
public struct ReferenceReplicaFold<Section: ListElement, Item: ListElement>: Sendable {
  public typealias Anchor = ReplicaAnchor<Section.ID, Item.ID>
  public typealias Container = ListItemContainer<Section.ID, Item.ID>
  public typealias Commit = ReplicaCommit<Section, Item>
  public typealias Operation = ReplicaOperation<Section, Item>
  public typealias Outline = ListOutline<Item>

  /// A record that an operation did not take effect as made (the model's copy of the engine's
  /// `ReplicaOverride`, which TestSupport cannot import).
  public struct Override: Hashable, Sendable, CustomStringConvertible {
    public enum Subject: Hashable, Sendable {
      case item(Item.ID)
      case section(Section.ID)
    }
    public enum Reason: Hashable, Sendable {
      case anchorDeleted, containerDeleted, alreadyDeleted, cycle, duplicateIdentifier
      case superseded(by: ReplicaCommitID)
      case keptFromDeletion, noPlace
    }
    public var commit: ReplicaCommitID
    public var operation: Int
    public var subject: Subject
    public var reason: Reason

    public init(commit: ReplicaCommitID, operation: Int, subject: Subject, reason: Reason) {
      self.commit = commit
      self.operation = operation
      self.subject = subject
      self.reason = reason
    }

    public var description: String { "\(commit) #\(operation) \(subject): \(reason)" }
  }

  /// One item: its content, expansion, children in order and container.
  struct ItemRecord: Sendable {
    var item: Item
    var isExpanded: Bool
    var children: [Item.ID]
    var container: Container
  }

  /// One section and its root items in order.
  struct SectionRecord: Sendable {
    var section: Section
    var roots: [Item.ID]
  }

  /// A field of an item or section that operations set (the last setter wins).
  enum Field: Hashable, Sendable {
    case itemContent(Item.ID), itemPlace(Item.ID), itemExpansion(Item.ID)
    case sectionContent(Section.ID), sectionPlace(Section.ID)
  }

  var sections: [SectionRecord] = []
  var items: [Item.ID: ItemRecord] = [:]
  /// Where each deleted item was: its container and the sibling it followed.
  var itemTombstones: [Item.ID: Anchor] = [:]
  /// The item that replaced each replaced one (with a new identifier).
  var replacedItems: [Item.ID: Item.ID] = [:]
  /// The section each deleted section followed (nil: it was first).
  var sectionTombstones: [Section.ID: Section.ID?] = [:]
  /// The section that replaced each replaced one (with a new identifier).
  var replacedSections: [Section.ID: Section.ID] = [:]
  /// The commit and operation index that last set each field.
  var writers: [Field: (commit: ReplicaCommitID, operation: Int)] = [:]
  /// The overrides in the order the fold recorded them.
  public internal(set) var overrides: [Override] = []

  /// Folds `commits` (in any order; they are sorted into the agreed one) from `base`.
  public init(base: ListSnapshot<Section, Item>, commits: [Commit]) {
    for section in base.sections {
      sections.append(SectionRecord(section: section, roots: []))
      let roots = base.outline(ofSection: section.id)?.roots ?? []
      add(roots, to: .section(section.id), at: 0)
    }
    let ordered = commits.sorted { $0.orderKey < $1.orderKey }
    for commit in ordered {
      for index in commit.operations.indices {
        apply(commit.operations[index], of: commit, index: index)
      }
    }
  }

  /// The folded list, as the reference list model (no markers: a merged list carries none).
  public var list: ReferenceList<Section, Item> {
    var result = ReferenceList<Section, Item>()
    result.entries = sections.map { record in
      ReferenceList.SectionEntry(section: record.section, roots: record.roots.map(node))
    }
    return result
  }

  func node(_ id: Item.ID) -> ListOutline<Item>.Node {
    let record = items[id]!
    return ListOutline<Item>.Node(record.item, isExpanded: record.isExpanded, children: record.children.map(node))
  }

  // MARK: Plain queries and edits

  func sectionPosition(_ id: Section.ID) -> Int? { sections.firstIndex { $0.section.id == id } }

  func siblings(in container: Container) -> [Item.ID] {
    switch container {
    case .section(let id): sections[sectionPosition(id)!].roots
    case .parent(let id): items[id]!.children
    }
  }

  mutating func setSiblings(_ ids: [Item.ID], in container: Container) {
    switch container {
    case .section(let id): sections[sectionPosition(id)!].roots = ids
    case .parent(let id): items[id]!.children = ids
    }
  }

  func containerExists(_ container: Container) -> Bool {
    switch container {
    case .section(let id): sectionPosition(id) != nil
    case .parent(let id): items[id] != nil
    }
  }

  /// The item's container and its index among its siblings.
  func location(of id: Item.ID) -> (container: Container, index: Int)? {
    guard let record = items[id] else { return nil }
    return (record.container, siblings(in: record.container).firstIndex(of: id)!)
  }

  /// The item, its parent, its parent's parent, … up to a root.
  func selfAndAncestors(_ id: Item.ID) -> [Item.ID] {
    var chain = [id]
    while case .parent(let parent) = items[chain[chain.count - 1]]!.container { chain.append(parent) }
    return chain
  }

  /// The item and everything under it, in document order.
  func subtree(_ id: Item.ID) -> [Item.ID] {
    [id] + items[id]!.children.flatMap(subtree)
  }

  mutating func add(_ nodes: [ListOutline<Item>.Node], to container: Container, at index: Int) {
    var ids = siblings(in: container)
    ids.insert(contentsOf: nodes.map(\.item.id), at: index)
    setSiblings(ids, in: container)
    for node in nodes {
      items[node.item.id] = ItemRecord(item: node.item, isExpanded: node.isExpanded, children: [], container: container)
      add(node.children, to: .parent(node.item.id), at: 0)
    }
  }

  mutating func detach(_ id: Item.ID) {
    let container = items[id]!.container
    setSiblings(siblings(in: container).filter { $0 != id }, in: container)
  }

  mutating func attach(_ id: Item.ID, to container: Container, at index: Int) {
    var ids = siblings(in: container)
    ids.insert(id, at: index)
    setSiblings(ids, in: container)
    items[id]!.container = container
  }

  mutating func remove(_ id: Item.ID) {
    let all = subtree(id)
    detach(id)
    for item in all { items[item] = nil }
  }
}
