import ListState

/// Makes random ``ListOperation``s from a list's current state: mostly valid ones, and with
/// probability ``invalidProbability`` deliberately invalid ones (unknown identifiers, duplicates
/// in the argument, identifiers that already exist, moves relative to the item itself or under
/// its own descendant, anchors among the inserted items, out-of-range indexes and index paths).
///
/// Identifiers come from small pools (``itemPoolSize`` items, ``sectionPoolSize`` sections) so
/// that collisions, re-insertions of deleted identifiers and reuse happen often. Every generated
/// value gets fresh content, so content updates are observable with `TestItem`/`TestSection`.
/// Deterministic: the same seed and the same sequence of states give the same operations.
///
/// ```swift
/// var generator = ListOperationGenerator<TestSection, TestItem>()
/// var rng = SeededRandom(seed: 7)
/// var snapshot = TestSnapshot()
/// for _ in 0..<100 {
///     let operation = generator.next(for: snapshot, using: &rng)
///     _ = try? operation.apply(to: &snapshot)
/// }
/// ```
///
/// - Complexity: O(n) per operation for n items (it walks the state once).
public struct ListOperationGenerator<Section: GeneratableElement, Item: GeneratableElement>: Sendable {
  public typealias Operation = ListOperation<Section, Item>
  public typealias Reference = ReferenceList<Section, Item>
  public typealias Outline = ListOutline<Item>

  /// How many distinct item identifiers exist (`Item.generated(index: 0..<itemPoolSize)`).
  public var itemPoolSize: Int
  /// How many distinct section identifiers exist.
  public var sectionPoolSize: Int
  /// Probability that an operation is made deliberately invalid.
  public var invalidProbability: Double
  /// Above this many items, deletions become much more likely (keeps states small and fast).
  public var targetItemCount: Int
  /// Probability of `deleteAllItems` per operation (it resets the whole list, so keep it rare).
  public var deleteAllProbability: Double
  /// Relative weights of operation names (see ``ListOperation/name``); missing names weigh 0.
  public var weights: [String: Int]

  private var nextVariant = 0
  private let itemPoolIndex: [Item.ID: Int]
  private let sectionPoolIndex: [Section.ID: Int]
  /// `Item.generated(index: i, variant: 0).id` for every index of the pool (and 20 beyond it).
  let itemPoolIDs: [Item.ID]
  let sectionPoolIDs: [Section.ID]

  /// Every operation kind with its default weight.
  public static var defaultWeights: [String: Int] {
    [
      "appendSections": 3, "insertSectionsBefore": 2, "insertSectionsAfter": 2, "insertSectionsAt": 2,
      "deleteSections": 1, "moveSectionBefore": 2, "moveSectionAfter": 2, "moveSectionToIndex": 2,
      "reloadSections": 2, "updateSection": 2, "replaceSection": 2,
      "appendItems": 8, "appendItemsUnderParent": 6, "insertItemsBefore": 4, "insertItemsAfter": 4,
      "deleteItems": 5, "deleteItemsIfPresent": 2, "moveItemBefore": 4, "moveItemAfter": 4,
      "moveItemToSection": 2, "moveItemUnderParent": 4, "moveItemToLocation": 4,
      "reloadItems": 2, "reconfigureItems": 2, "updateItems": 2, "updateItem": 2, "replaceItem": 3,
      "expand": 7, "collapse": 3, "replaceChildren": 3, "insertOutlineBefore": 2, "insertOutlineAfter": 2,
      "appendOutline": 2, "appendOutlineUnderParent": 2, "insertOutlineAt": 2,
      "moveVisibleRow": 7, "clearMarkers": 1,
    ]
  }

  public init(
    itemPoolSize: Int = 60, sectionPoolSize: Int = 8, invalidProbability: Double = 0.15,
    targetItemCount: Int = 40, deleteAllProbability: Double = 0.002, weights: [String: Int] = Self.defaultWeights
  ) {
    self.itemPoolSize = itemPoolSize
    self.sectionPoolSize = sectionPoolSize
    self.invalidProbability = invalidProbability
    self.targetItemCount = targetItemCount
    self.deleteAllProbability = deleteAllProbability
    self.weights = weights
    // Indexes past the pools are used for identifiers that are never in the list.
    itemPoolIDs = (0..<(itemPoolSize + 20)).map { Item.generated(index: $0, variant: 0).id }
    sectionPoolIDs = (0..<(sectionPoolSize + 20)).map { Section.generated(index: $0, variant: 0).id }
    itemPoolIndex = Dictionary(uniqueKeysWithValues: itemPoolIDs.enumerated().map { ($1, $0) })
    sectionPoolIndex = Dictionary(uniqueKeysWithValues: sectionPoolIDs.enumerated().map { ($1, $0) })
  }

  /// The next operation for a list in `snapshot`'s state.
  public mutating func next<R: RandomNumberGenerator>(for snapshot: ListSnapshot<Section, Item>, using rng: inout R) -> Operation {
    next(for: Reference(snapshot), using: &rng)
  }

  /// The next operation for a list in `reference`'s state.
  public mutating func next<R: RandomNumberGenerator>(for reference: Reference, using rng: inout R) -> Operation {
    var state = State(reference: reference, generator: self)
    if Double.random(in: 0..<1, using: &rng) < deleteAllProbability { return .deleteAllItems }
    let name = pickName(state, using: &rng)
    let invalid = Double.random(in: 0..<1, using: &rng) < invalidProbability
    return make(name, invalid: invalid, state: &state, using: &rng)
  }
}

// MARK: - State of the list as the generator sees it

extension ListOperationGenerator {
  struct State {
    let reference: Reference
    let rows: [Reference.Row]
    let itemIDs: [Item.ID]
    let sectionIDs: [Section.ID]
    var absentItemIndexes: [Int]
    var absentSectionIndexes: [Int]

    init(reference: Reference, generator: ListOperationGenerator) {
      self.reference = reference
      rows = reference.rows()
      itemIDs = rows.map { $0.id }
      sectionIDs = reference.sectionIdentifiers
      let presentItems = Set(itemIDs)
      let presentSections = Set(sectionIDs)
      absentItemIndexes = (0..<generator.itemPoolSize).filter { !presentItems.contains(generator.itemPoolIDs[$0]) }
      absentSectionIndexes = (0..<generator.sectionPoolSize).filter {
        !presentSections.contains(generator.sectionPoolIDs[$0])
      }
    }
  }

  func pickName<R: RandomNumberGenerator>(_ state: State, using rng: inout R) -> String {
    var table = weights
    if state.sectionIDs.isEmpty { table["appendSections", default: 0] += 40 }
    if state.sectionIDs.count < 2 { table["appendSections", default: 0] += 3 }
    if state.sectionIDs.count > 5 { table["deleteSections", default: 0] += 6 }
    if state.itemIDs.isEmpty, !state.sectionIDs.isEmpty { table["appendItems", default: 0] += 20 }
    if state.itemIDs.count > targetItemCount {
      table["deleteItems", default: 0] += 25
      table["deleteItemsIfPresent", default: 0] += 5
    }
    let entries = table.filter { $0.value > 0 }.sorted { $0.key < $1.key }
    var roll = Int.random(in: 0..<entries.reduce(0) { $0 + $1.value }, using: &rng)
    for (name, weight) in entries {
      if roll < weight { return name }
      roll -= weight
    }
    return entries[entries.count - 1].key
  }
}

// MARK: - Building blocks

extension ListOperationGenerator {
  mutating func freshVariant() -> Int {
    nextVariant += 1
    return nextVariant
  }

  mutating func item(_ id: Item.ID) -> Item {
    Item.generated(index: itemPoolIndex[id] ?? 0, variant: freshVariant())
  }

  mutating func section(_ id: Section.ID) -> Section {
    Section.generated(index: sectionPoolIndex[id] ?? 0, variant: freshVariant())
  }

  /// An item identifier that is not in the list (absent from the pool, or outside it).
  func unknownItemID<R: RandomNumberGenerator>(_ state: State, using rng: inout R) -> Item.ID {
    if let index = state.absentItemIndexes.randomElement(using: &rng), Bool.random(using: &rng) {
      return itemPoolIDs[index]
    }
    return itemPoolIDs[itemPoolSize + Int.random(in: 0..<20, using: &rng)]
  }

  func unknownSectionID<R: RandomNumberGenerator>(_ state: State, using rng: inout R) -> Section.ID {
    if let index = state.absentSectionIndexes.randomElement(using: &rng), Bool.random(using: &rng) {
      return sectionPoolIDs[index]
    }
    return sectionPoolIDs[sectionPoolSize + Int.random(in: 0..<20, using: &rng)]
  }

  /// A random item in the list, or an unknown one when the list has none.
  func someItemID<R: RandomNumberGenerator>(_ state: State, using rng: inout R) -> Item.ID {
    state.itemIDs.randomElement(using: &rng) ?? unknownItemID(state, using: &rng)
  }

  func someSectionID<R: RandomNumberGenerator>(_ state: State, using rng: inout R) -> Section.ID {
    state.sectionIDs.randomElement(using: &rng) ?? unknownSectionID(state, using: &rng)
  }

  /// Up to `count` distinct existing items (at least one unless the list is empty).
  func someItemIDs<R: RandomNumberGenerator>(_ state: State, upTo count: Int, using rng: inout R) -> [Item.ID] {
    Array(state.itemIDs.shuffled(using: &rng).prefix(Int.random(in: 1...count, using: &rng)))
  }

  /// `count` items with identifiers not in the list (fewer when the pool runs out; then one
  /// existing identifier is used so the operation still has an argument).
  mutating func newItems<R: RandomNumberGenerator>(_ state: inout State, count: Int, using rng: inout R) -> [Item] {
    var result: [Item] = []
    for _ in 0..<count {
      guard !state.absentItemIndexes.isEmpty else { break }
      let index = state.absentItemIndexes.remove(at: Int.random(in: 0..<state.absentItemIndexes.count, using: &rng))
      result.append(Item.generated(index: index, variant: freshVariant()))
    }
    if result.isEmpty { result.append(item(someItemID(state, using: &rng))) }
    return result
  }

  mutating func newSections<R: RandomNumberGenerator>(_ state: inout State, count: Int, using rng: inout R) -> [Section] {
    var result: [Section] = []
    for _ in 0..<count {
      guard !state.absentSectionIndexes.isEmpty else { break }
      let index = state.absentSectionIndexes.remove(
        at: Int.random(in: 0..<state.absentSectionIndexes.count, using: &rng))
      result.append(Section.generated(index: index, variant: freshVariant()))
    }
    if result.isEmpty { result.append(section(someSectionID(state, using: &rng))) }
    return result
  }

  /// Makes a list of new items invalid: a repeat, or an identifier already in the list.
  mutating func corrupt<R: RandomNumberGenerator>(_ items: [Item], _ state: State, using rng: inout R) -> [Item] {
    var items = items
    if state.itemIDs.isEmpty || Bool.random(using: &rng) {
      let repeated = items.randomElement(using: &rng)!
      items.insert(item(repeated.id), at: Int.random(in: 0...items.count, using: &rng))
    } else {
      items.insert(item(state.itemIDs.randomElement(using: &rng)!), at: Int.random(in: 0...items.count, using: &rng))
    }
    return items
  }

  mutating func corrupt<R: RandomNumberGenerator>(_ sections: [Section], _ state: State, using rng: inout R) -> [Section] {
    var sections = sections
    if state.sectionIDs.isEmpty || Bool.random(using: &rng) {
      let repeated = sections.randomElement(using: &rng)!
      sections.insert(section(repeated.id), at: Int.random(in: 0...sections.count, using: &rng))
    } else {
      sections.insert(
        section(state.sectionIDs.randomElement(using: &rng)!), at: Int.random(in: 0...sections.count, using: &rng))
    }
    return sections
  }

  /// Makes a list of existing identifiers invalid: a repeat or an unknown identifier.
  func corrupt<R: RandomNumberGenerator>(_ ids: [Item.ID], _ state: State, using rng: inout R) -> [Item.ID] {
    var ids = ids
    let extra = (Bool.random(using: &rng) && !ids.isEmpty) ? ids.randomElement(using: &rng)! : unknownItemID(state, using: &rng)
    ids.insert(extra, at: Int.random(in: 0...ids.count, using: &rng))
    return ids
  }

  func corrupt<R: RandomNumberGenerator>(_ ids: [Section.ID], _ state: State, using rng: inout R) -> [Section.ID] {
    var ids = ids
    let extra =
      (Bool.random(using: &rng) && !ids.isEmpty) ? ids.randomElement(using: &rng)! : unknownSectionID(state, using: &rng)
    ids.insert(extra, at: Int.random(in: 0...ids.count, using: &rng))
    return ids
  }

  /// Nests `items` into a random forest (depth at most 3) with random expansion flags.
  func outline<R: RandomNumberGenerator>(_ items: [Item], using rng: inout R) -> Outline {
    var remaining = items[...]
    func build(depth: Int) -> [Outline.Node] {
      var nodes: [Outline.Node] = []
      while let item = remaining.popFirst() {
        var node = Outline.Node(item, isExpanded: Bool.random(using: &rng))
        if depth < 3, Int.random(in: 0..<10, using: &rng) < 4 { node.children = build(depth: depth + 1) }
        nodes.append(node)
        if depth > 0, Int.random(in: 0..<10, using: &rng) < 4 { break }
      }
      return nodes
    }
    var roots: [Outline.Node] = []
    while !remaining.isEmpty { roots += build(depth: 0) }
    return Outline(roots)
  }

  /// Items other than `id` and its descendants (valid anchors or parents for moving `id`).
  func outside(_ id: Item.ID, _ state: State) -> [Item.ID] {
    let subtree = Set(state.reference.subtree(of: id))
    return state.itemIDs.filter { !subtree.contains($0) }
  }

  /// A target that is invalid for moving `id` relative to it: itself, a descendant, or unknown.
  func badTarget<R: RandomNumberGenerator>(for id: Item.ID, _ state: State, using rng: inout R) -> Item.ID {
    let descendants = Array(state.reference.subtree(of: id).dropFirst())
    switch Int.random(in: 0..<3, using: &rng) {
    case 0: return id
    case 1 where !descendants.isEmpty: return descendants.randomElement(using: &rng)!
    default: return unknownItemID(state, using: &rng)
    }
  }

  /// A random container and the number of children it has (nil: a parent that is `excluded`
  /// or under it is avoided).
  func someContainer<R: RandomNumberGenerator>(excluding excluded: Item.ID?, _ state: State, using rng: inout R)
    -> ListItemContainer<Section.ID, Item.ID>
  {
    let parents = excluded.map { outside($0, state) } ?? state.itemIDs
    if let parent = parents.randomElement(using: &rng), Bool.random(using: &rng) { return .parent(parent) }
    return .section(someSectionID(state, using: &rng))
  }
}
