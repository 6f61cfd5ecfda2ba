import ListDiff
import ListState
import TestSupport
import Testing

/// The validator must reject what UIKit rejects, or the property tests prove nothing.
@Suite("Changeset validator")
struct ChangesetValidatorTests {
  typealias Rows = ListVisibleRows<String, String>
  typealias Changeset = ListChangeset<String, String>
  let validator = ChangesetValidator()

  func single(_ old: Rows, _ new: Rows, _ edit: (inout Changeset.Stage) -> Void) -> Changeset {
    var stage = Changeset.Stage()
    edit(&stage)
    // Fill in the identifiers from the positions (the validator checks them separately).
    stage.deletedSections = stage.sectionDeletes.map { old.sectionIdentifiers[$0] }
    stage.insertedSections = stage.sectionInserts.map { new.sectionIdentifiers[$0] }
    stage.movedSections = stage.sectionMoves.map { old.sectionIdentifiers[$0.from] }
    stage.reloadedSections = stage.sectionReloads.map { old.sectionIdentifiers[$0] }
    stage.deletedItems = stage.itemDeletes.compactMap { old[$0] }
    stage.insertedItems = stage.itemInserts.compactMap { new[$0] }
    stage.movedItems = stage.itemMoves.compactMap { old[$0.from] }
    stage.reloadedItems = stage.itemReloads.compactMap { old[$0] }
    return Changeset(stages: [stage])
  }

  func path(_ section: Int, _ row: Int) -> ListIndexPath { ListIndexPath(section: section, row: row) }

  /// The seed's crash: the data source gained a row but the batch inserts nothing.
  @Test func rejectsAMissingInsert() {
    let old = Rows(sections: ["S"], rows: [["a"]]), new = Rows(sections: ["S"], rows: [["a", "b"]])
    let failure = #expect(throws: ChangesetValidator.Failure.self) {
      try validator.validate(single(old, new) { $0.itemReloads = [path(0, 0)] }, from: old, to: new, reloadedItems: ["a"])
    }
    #expect(failure?.message.contains("invalid number of items in section 0") == true)
    #expect(throws: Never.self) {
      try validator.validate(single(old, new) { $0.itemInserts = [path(0, 1)] }, from: old, to: new)
    }
  }

  @Test func rejectsBatchesUIKitRejects() {
    let old = Rows(sections: ["S", "T"], rows: [["a", "b", "c"], ["d"]])
    let new = Rows(sections: ["S", "T"], rows: [["c", "a", "b"], ["d"]])
    let move = ListMove(from: path(0, 2), to: path(0, 0))
    let bad: [(String, (inout Changeset.Stage) -> Void)] = [
      ("reload + move", { $0.itemMoves = [move]; $0.itemReloads = [path(0, 2)] }),
      ("delete + move", { $0.itemMoves = [move]; $0.itemDeletes = [path(0, 2)] }),
      ("out of range", { $0.itemMoves = [ListMove(from: path(0, 3), to: path(0, 0))] }),
      ("wrong destination", { $0.itemMoves = [ListMove(from: path(0, 2), to: path(0, 1))] }),
      ("duplicate move", { $0.itemMoves = [move, move] }),
      ("row in deleted section", { $0.itemMoves = [move]; $0.sectionReloads = [0] }),
      ("unchanged reload", { $0.itemMoves = [move]; $0.itemReloads = [path(0, 0)] }),
      ("no section", { $0.itemMoves = [move]; $0.itemDeletes = [path(2, 0)] }),
    ]
    for (name, edit) in bad {
      #expect(throws: ChangesetValidator.Failure.self, "\(name)") {
        try validator.validate(single(old, new, edit), from: old, to: new)
      }
    }
    #expect(throws: Never.self) {
      try validator.validate(single(old, new) { $0.itemMoves = [move] }, from: old, to: new)
    }
    var mislabeled = single(old, new) { $0.itemMoves = [move] }
    mislabeled.stages[0].movedItems = ["a"]
    #expect(throws: ChangesetValidator.Failure.self) { try validator.validate(mislabeled, from: old, to: new) }
  }

  @Test func rejectsMissingReloadAndRowsInMovedSections() {
    let old = Rows(sections: ["S", "T"], rows: [["a"], ["b"]])
    let new = Rows(sections: ["T", "S"], rows: [["b", "c"], ["a"]])
    let movedWithInsert = single(old, new) {
      $0.sectionMoves = [ListMove(from: 1, to: 0)]
      $0.itemInserts = [path(0, 1)]
    }
    #expect(throws: ChangesetValidator.Failure.self) { try validator.validate(movedWithInsert, from: old, to: new) }
    #expect(throws: Never.self) {
      try ChangesetValidator(allowsRowChangesInMovedSections: true).validate(movedWithInsert, from: old, to: new)
    }
    let same = Rows(sections: ["S"], rows: [["a"]])
    #expect(throws: ChangesetValidator.Failure.self) {
      try validator.validate(Changeset(), from: same, to: same, reloadedItems: ["a"])
    }
  }
}
