import Foundation
import ListHistory
import ListPresenter
import ListState
import Observation
import TestSupport
import Testing

/// The observable model: its sections and rows against the store, SwiftUI's move and delete
/// against `Array`'s semantics, and observation counted per version with
/// `withObservationTracking`.
@Suite("The SwiftUI model")
@MainActor
struct ListModelTests {
  typealias Store = ListStore<TestSection, TestItem>
  typealias Model = ListModel<TestSection, TestItem>

  /// Counts how often observation fires for what a list view reads (sections and their rows),
  /// re-arming at once after each change, so that a second change to the same version would be
  /// counted too.
  @MainActor
  final class ObservationCounter {
    var count = 0
    let model: Model

    init(_ model: Model) {
      self.model = model
      arm()
    }

    func arm() {
      withObservationTracking {
        for section in model.sections { _ = section.rows.map(\.id) }
      } onChange: { [self] in
        MainActor.assumeIsolated {
          count += 1
          arm()
        }
      }
    }
  }

  static func settle(_ model: Model) async {
    var turns = 0
    while model.presenter.hasPendingUpdates, turns < 10_000 {
      await Task.yield()
      turns += 1
    }
    for _ in 0..<3 { await Task.yield() }
  }

  /// What SwiftUI's `MutableCollection.move(fromOffsets:toOffset:)` does.
  static func arrayMove<T>(_ array: [T], fromOffsets source: IndexSet, toOffset destination: Int) -> [T] {
    let moved = source.map { array[$0] }
    let kept = array.indices.filter { !source.contains($0) }.map { array[$0] }
    let insertion = (0..<destination).count { !source.contains($0) }
    return Array(kept[..<insertion]) + moved + Array(kept[insertion...])
  }

  static func check(_ model: Model, _ store: Store, _ context: String) -> Bool {
    let snapshot = store.snapshot
    var ok = true
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
      if !condition {
        Issue.record("\(context): \(message())")
        ok = false
      }
    }
    expect(model.sections.map(\.id) == snapshot.sectionIdentifiers, "sections")
    for section in model.sections {
      expect(section.section == snapshot.section(section.id), "section value")
      let rows = Array(section.rows)
      expect(rows.map(\.id) == snapshot.visibleItems(inSection: section.id), "rows of \(section.id)")
      expect(model.rows(inSection: section.id).map(\.id) == rows.map(\.id), "rows(inSection:)")
      for row in rows {
        expect(row.item == snapshot.item(row.id), "value of \(row.id)")
        expect(row.level == snapshot.level(of: row.id), "level of \(row.id)")
        expect(row.isExpanded == snapshot.isExpanded(row.id) && model.isExpanded(row.id) == row.isExpanded, "expansion of \(row.id)")
        expect(row.hasChildren == !snapshot.children(of: row.id).isEmpty, "children of \(row.id)")
      }
    }
    return ok
  }

  @Test(arguments: 0..<3)
  func randomRunsShowTheStoreAndNotifyOncePerVersion(seedOffset: Int) async throws {
    let seed = 0x5_1F7_0000 + UInt64(seedOffset)
    var rng = SeededRandom(seed: seed)
    var weights = ListOperationGenerator<TestSection, TestItem>.defaultWeights
    weights["clearMarkers"] = nil
    var generator = ListOperationGenerator<TestSection, TestItem>(invalidProbability: 0.05, targetItemCount: 30, weights: weights)
    let store = Store()
    let model = Model(store: store)
    var errors: [any Error] = []
    model.onError = { errors.append($0) }
    let counter = ObservationCounter(model)
    for step in 0..<SeededRandom.propertySteps(default: 300) {
      let head = store.head
      let fired = counter.count
      var kind = ""
      let sections = model.sections
      let section = sections.randomElement(using: &rng)
      let rows = section.map { Array($0.rows) } ?? []
      switch Int.random(in: 0..<100, using: &rng) {
      case 0..<40:
        kind = "transaction"
        try? store.transaction(label: "Edit") { transaction in
          for _ in 0..<Int.random(in: 1...6, using: &rng) {
            _ = try? generator.next(for: transaction.snapshot, using: &rng).apply(to: &transaction)
          }
        }
      case 40..<50:
        kind = "undo"
        if store.canUndo { try store.undo() }
      case 50..<56:
        kind = "redo"
        if store.redoTarget != nil { try store.redo() }
      case 56..<72:
        kind = "onMove"
        if let section, !rows.isEmpty {
          let source = IndexSet((0..<rows.count).filter { _ in rng.chance(0.25) })
          let destination = Int.random(in: 0...rows.count, using: &rng)
          let flat = rows.allSatisfy { $0.level == 0 && !($0.hasChildren && $0.isExpanded) }
          model.move(fromOffsets: source, toOffset: destination, inSection: section.id)
          if flat {
            #expect(
              model.rows(inSection: section.id).map(\.id) == Self.arrayMove(rows.map(\.id), fromOffsets: source, toOffset: destination),
              "seed \(seed) step \(step): a flat section moves as Array.move does")
          }
          if store.head != head { #expect(store.info(for: store.head)?.label == "Move") }
        }
      case 72..<82:
        kind = "onDelete"
        if let section, !rows.isEmpty {
          let offsets = IndexSet((0..<rows.count).filter { _ in rng.chance(0.2) })
          model.delete(atOffsets: offsets, inSection: section.id)
          for offset in offsets { #expect(!store.snapshot.contains(item: rows[offset].id)) }
          if !offsets.isEmpty { #expect(store.info(for: store.head)?.label == "Delete") }
        }
      case 82..<94:
        kind = "disclosure binding"
        if let row = rows.filter(\.hasChildren).randomElement(using: &rng) {
          model.setExpanded(!row.isExpanded, forItem: row.id)
          #expect(model.isExpanded(row.id) == !row.isExpanded, "the setter's version is shown before it returns")
          #expect(store.info(for: store.head)?.label == (row.isExpanded ? "Collapse" : "Expand"))
        }
      default:
        kind = "commit from another thread"
        let operation = generator.next(for: store.snapshot, using: &rng)
        await Task.detached { try? store.transaction { _ = try operation.apply(to: &$0) } }.value
      }
      await Self.settle(model)
      guard Self.check(model, store, "seed \(seed) step \(step) (\(kind))") else { break }
      // One notification per version taken in, whatever the number of its events; none when
      // the head did not move.
      let expected = store.head == head ? 0 : 1
      #expect(counter.count - fired == expected, "seed \(seed) step \(step) (\(kind)): \(counter.count - fired) notifications")
      #expect(model.version == store.head)
    }
    #expect(errors.isEmpty, "\(errors)")
  }

  @Test func bigTransactionsNotifyOnceAndStaleOffsetsAreReported() async throws {
    let store = Store()
    let model = Model(store: store)
    let counter = ObservationCounter(model)
    try store.transaction(label: "Fill") { transaction in
      try transaction.appendSections([TestSection("S")])
      for index in 0..<50 { try transaction.appendItems([TestItem("i\(index)")]) }
    }
    await Self.settle(model)
    #expect(counter.count == 1, "fifty-one events, one version, one notification")
    var errors: [ListError<String, String>] = []
    model.onError = { errors.append($0 as! ListError<String, String>) }
    model.delete(atOffsets: [50], inSection: "S")
    model.move(fromOffsets: [0], toOffset: 51, inSection: "S")
    model.move(fromOffsets: [0], toOffset: 1, inSection: "nope")
    #expect(errors == [.indexPathOutOfRange(section: 0, row: 50), .indexPathOutOfRange(section: 0, row: 51), .sectionsNotFound(["nope"])])
    #expect(store.head == Version(1) && counter.count == 1)
  }
}
