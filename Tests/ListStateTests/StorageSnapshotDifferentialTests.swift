import Testing

@testable import ListState

/// A storage-level differential check: random structural operations applied to a snapshot and
/// to a tiny nested-array model; positions, pre-order, visible rows and index queries must
/// agree, and invariants hold after every step. (The full reference-model property tests live
/// in the ListStateTests files written against TestSupport; this one exercises the B+tree
/// storage paths: relabeling, weight propagation, cross-container moves.)
@Suite struct StorageSnapshotDifferentialTests {
  typealias Snapshot = ListSnapshot<String, Int>
  typealias Container = ListItemContainer<String, Int>

  struct Node: Equatable {
    var id: Int
    var expanded: Bool
    var children: [Node]
  }

  struct Model {
    var sections: [(id: String, roots: [Node])] = []

    func find(_ id: Int) -> (container: Container, index: Int)? {
      func search(_ nodes: [Node], _ container: Container) -> (Container, Int)? {
        for (index, node) in nodes.enumerated() {
          if node.id == id { return (container, index) }
          if let found = search(node.children, .parent(node.id)) { return found }
        }
        return nil
      }
      for section in sections {
        if let found = search(section.roots, .section(section.id)) { return found }
      }
      return nil
    }

    func node(_ id: Int) -> Node? {
      guard let (container, index) = find(id) else { return nil }
      return nodes(of: container)[index]
    }

    func nodes(of container: Container) -> [Node] {
      var result: [Node] = []
      var copy = self
      copy.withNodes(of: container) { result = $0 }
      return result
    }

    mutating func withNodes(of container: Container, _ body: (inout [Node]) -> Void) {
      func visit(_ nodes: inout [Node]) -> Bool {
        for i in nodes.indices {
          if case .parent(nodes[i].id) = container {
            body(&nodes[i].children)
            return true
          }
          if visit(&nodes[i].children) { return true }
        }
        return false
      }
      for s in sections.indices {
        if case .section(sections[s].id) = container {
          body(&sections[s].roots)
          return
        }
        if visit(&sections[s].roots) { return }
      }
    }

    mutating func remove(_ id: Int) -> Node {
      let (container, index) = find(id)!
      var removed: Node? = nil
      withNodes(of: container) { removed = $0.remove(at: index) }
      return removed!
    }

    mutating func insert(_ node: Node, in container: Container, at index: Int) {
      withNodes(of: container) { $0.insert(node, at: index) }
    }

    func preorder(_ nodes: [Node], visibleOnly: Bool) -> [Int] {
      nodes.flatMap { [$0.id] + ((!visibleOnly || $0.expanded) ? preorder($0.children, visibleOnly: visibleOnly) : []) }
    }

    func isDescendant(_ candidate: Int, of ancestor: Int) -> Bool {
      guard let node = node(ancestor) else { return false }
      return preorder(node.children, visibleOnly: false).contains(candidate)
    }

    var allItems: [Int] { sections.flatMap { preorder($0.roots, visibleOnly: false) } }
  }

  static func compare(_ snapshot: Snapshot, _ model: Model) {
    snapshot._checkInvariants()
    #expect(snapshot.sectionIdentifiers == model.sections.map(\.id))
    #expect(snapshot.itemIdentifiers == model.allItems)
    for (sectionIndex, section) in model.sections.enumerated() {
      let visible = model.preorder(section.roots, visibleOnly: true)
      #expect(snapshot.visibleItems(inSection: section.id) == visible)
      for (row, id) in visible.enumerated() {
        #expect(snapshot.visibleIndexPath(ofItem: id) == ListIndexPath(section: sectionIndex, row: row))
        #expect(snapshot.visibleItem(at: ListIndexPath(section: sectionIndex, row: row)) == id)
      }
      #expect(snapshot.numberOfItems(inSection: section.id) == model.preorder(section.roots, visibleOnly: false).count)
    }
    for (index, id) in model.allItems.enumerated() {
      #expect(snapshot.index(ofItem: id) == index)
      let (container, position) = model.find(id)!
      #expect(snapshot.location(ofItem: id) == ListItemLocation(container, index: position))
      #expect(snapshot.isExpanded(id) == model.node(id)!.expanded)
    }
  }

  @Test(arguments: [1, 2, 3])
  func randomOperationsMatchModel(seed: UInt64) throws {
    var rng = StorageOrderedTreeTests.Rng(state: seed)
    var snapshot = Snapshot()
    var model = Model()
    var nextItem = 0
    var nextSection = 0
    let steps = 400
    for step in 0..<steps {
      let items = model.allItems
      let before = snapshot
      let action = rng.int(14)
      do {
        switch action {
        case 0 where model.sections.count < 4 || items.isEmpty:
          let id = "S\(nextSection)"
          nextSection += 1
          let index = rng.int(model.sections.count + 1)
          try snapshot.insertSections([id], at: index)
          model.sections.insert((id, []), at: index)
        case 1, 2, 3:
          guard !model.sections.isEmpty else { continue }
          let count = 1 + rng.int(rng.int(4) == 0 ? 40 : 3)
          let new = Array(nextItem..<nextItem + count)
          nextItem += count
          if items.isEmpty || rng.int(3) == 0 {
            let section = model.sections[rng.int(model.sections.count)].id
            try snapshot.appendItems(new, toSection: section)
            model.withNodes(of: .section(section)) { $0 += new.map { Node(id: $0, expanded: false, children: []) } }
          } else {
            let anchor = items[rng.int(items.count)]
            switch rng.int(3) {
            case 0:
              try snapshot.appendItems(new, underParent: anchor)
              model.withNodes(of: .parent(anchor)) { $0 += new.map { Node(id: $0, expanded: false, children: []) } }
            case 1:
              try snapshot.insertItems(new, beforeItem: anchor)
              let (container, index) = model.find(anchor)!
              model.withNodes(of: container) {
                $0.insert(contentsOf: new.map { Node(id: $0, expanded: false, children: []) }, at: index)
              }
            default:
              try snapshot.insertItems(new, afterItem: anchor)
              let (container, index) = model.find(anchor)!
              model.withNodes(of: container) {
                $0.insert(contentsOf: new.map { Node(id: $0, expanded: false, children: []) }, at: index + 1)
              }
            }
          }
        case 4:
          guard !items.isEmpty else { continue }
          let id = items[rng.int(items.count)]
          try snapshot.deleteItems([id])
          _ = model.remove(id)
        case 5, 6:
          guard items.count >= 2 else { continue }
          let id = items[rng.int(items.count)]
          let anchor = items[rng.int(items.count)]
          let invalid = id == anchor || model.isDescendant(anchor, of: id)
          let mode = rng.int(3)
          do {
            switch mode {
            case 0: try snapshot.moveItem(id, beforeItem: anchor)
            case 1: try snapshot.moveItem(id, afterItem: anchor)
            default: try snapshot.moveItem(id, underParent: anchor)
            }
            #expect(!invalid)
            let node = model.remove(id)
            if mode == 2 {
              model.withNodes(of: .parent(anchor)) { $0.append(node) }
            } else {
              let (container, index) = model.find(anchor)!
              model.insert(node, in: container, at: index + mode)
            }
          } catch {
            #expect(invalid)
            #expect(snapshot == before)
          }
        case 7:
          guard !items.isEmpty else { continue }
          let id = items[rng.int(items.count)]
          // A positional move into a random existing container.
          let containers: [Container] = model.sections.map { .section($0.id) } + items.map { .parent($0) }
          let container = containers[rng.int(containers.count)]
          if case .parent(let parent) = container, parent == id || model.isDescendant(parent, of: id) { continue }
          let (oldContainer, _) = model.find(id)!
          let available = model.nodes(of: container).count - (oldContainer == container ? 1 : 0)
          let index = rng.int(available + 1)
          try snapshot.moveItem(id, to: ListItemLocation(container, index: index))
          let node = model.remove(id)
          model.insert(node, in: container, at: index)
        case 8, 9:
          guard !items.isEmpty else { continue }
          let id = items[rng.int(items.count)]
          let expand = !model.node(id)!.expanded
          if expand { try snapshot.expand([id]) } else { try snapshot.collapse([id]) }
          let (container, index) = model.find(id)!
          model.withNodes(of: container) { $0[index].expanded = expand }
        case 10:
          guard !items.isEmpty else { continue }
          let id = items[rng.int(items.count)]
          let newID = nextItem
          nextItem += 1
          try snapshot.replaceItem(id, with: newID)
          let (container, index) = model.find(id)!
          model.withNodes(of: container) { $0[index].id = newID }
        case 11:
          guard !items.isEmpty else { continue }
          let parent = items[rng.int(items.count)]
          let outline = ListOutline<Int>([
            .init(nextItem, isExpanded: true, children: [.init(nextItem + 1), .init(nextItem + 2)]),
            .init(nextItem + 3),
          ])
          let nodes = [
            Node(id: nextItem, expanded: true, children: [
              Node(id: nextItem + 1, expanded: false, children: []), Node(id: nextItem + 2, expanded: false, children: []),
            ]),
            Node(id: nextItem + 3, expanded: false, children: []),
          ]
          nextItem += 4
          if rng.int(2) == 0 {
            try snapshot.replace(childrenOf: parent, using: outline)
            model.withNodes(of: .parent(parent)) { $0 = nodes }
          } else {
            try snapshot.insert(outline, afterItem: parent)
            let (container, index) = model.find(parent)!
            model.withNodes(of: container) { $0.insert(contentsOf: nodes, at: index + 1) }
          }
        case 12:
          guard !model.sections.isEmpty else { continue }
          let s = rng.int(model.sections.count)
          let rows = model.preorder(model.sections[s].roots, visibleOnly: true)
          guard !rows.isEmpty else { continue }
          let source = ListIndexPath(section: s, row: rng.int(rows.count))
          let id = rows[source.row]
          let moved = model.preorder([model.node(id)!], visibleOnly: true).count
          let d = rng.int(model.sections.count)
          let remainingRows: [Int] = {
            var copy = model
            _ = copy.remove(id)
            return copy.preorder(copy.sections[d].roots, visibleOnly: true)
          }()
          #expect(remainingRows.count == model.preorder(model.sections[d].roots, visibleOnly: true).count - (d == s ? moved : 0))
          let destination = ListIndexPath(section: d, row: rng.int(remainingRows.count + 1))
          let transaction = try snapshot.moveVisibleRow(from: source, to: destination)
          #expect(transaction.initialSnapshot == before)
          let node = model.remove(id)
          if destination.row == remainingRows.count {
            model.withNodes(of: .section(model.sections[d].id)) { $0.append(node) }
          } else {
            let (container, index) = model.find(remainingRows[destination.row])!
            model.insert(node, in: container, at: index)
          }
          #expect(snapshot.visibleIndexPath(ofItem: id) == destination)
        default:
          guard model.sections.count > 1 else { continue }
          let s = rng.int(model.sections.count)
          if rng.int(4) == 0 {
            try snapshot.deleteSections([model.sections[s].id])
            model.sections.remove(at: s)
          } else {
            let target = rng.int(model.sections.count)
            try snapshot.moveSection(model.sections[s].id, toIndex: target)
            let section = model.sections.remove(at: s)
            model.sections.insert(section, at: target)
          }
        }
      } catch {
        Issue.record("step \(step): unexpected \(error)")
        return
      }
      if step % 10 == 0 || step == steps - 1 { Self.compare(snapshot, model) }
    }
  }

  @Test func bulkAppendThenSingleEditsKeepCopiesIntact() throws {
    var snapshot = Snapshot()
    try snapshot.appendSections(["A", "B"])
    try snapshot.appendItems(Array(0..<400), toSection: "A")
    try snapshot.appendItems(Array(400..<600), toSection: "B")
    var history: [Snapshot] = [snapshot]
    var expected: [[Int]] = [snapshot.itemIdentifiers]
    var rng = StorageOrderedTreeTests.Rng(state: 11)
    for _ in 0..<100 {
      let id = Int(rng.int(600))
      let anchor = Int(rng.int(600))
      if id != anchor { try snapshot.moveItem(id, beforeItem: anchor) }
      history.append(snapshot)
      expected.append(snapshot.itemIdentifiers)
    }
    for (copy, ids) in zip(history, expected) {
      #expect(copy.itemIdentifiers == ids)
    }
    #expect(snapshot.index(ofItem: 599).map { $0 >= 0 } == true)
  }
}
