import ListDiff
import ListState
import Testing

@Suite("Changeset rendering")
struct RenderingTests {
  typealias Rows = ListVisibleRows<String, String>

  @Test func splitChangesetRendersStageByStage() throws {
    let old = Rows(sections: ["A", "B"], rows: [["a1", "a2"], ["b1"]])
    let new = Rows(sections: ["B", "A"], rows: [["b1", "a2"], ["a1", "n"]])
    let changeset = ListChangeset(from: old, to: new, itemNeedsReload: { $0 == "a2" })
    #expect(
      changeset.lines == [
        "stage 1", "+ inserted n", "→ moved a2",
        "stage 2", "→ moved section B",
        "stage 3", "~ reloaded a2",
      ])
    #expect(
      changeset.jsonDescription
        == #"{"stages":[{"sectionDeletes":[],"sectionInserts":[],"sectionMoves":[],"sectionReloads":[],"itemDeletes":[],"itemInserts":[{"section":0,"item":1}],"itemMoves":[{"from":{"section":0,"item":1},"to":{"section":1,"item":1}}],"itemReloads":[],"itemReconfigures":[]},"#
        + #"{"sectionDeletes":[],"sectionInserts":[],"sectionMoves":[{"from":1,"to":0}],"sectionReloads":[],"itemDeletes":[],"itemInserts":[],"itemMoves":[],"itemReloads":[],"itemReconfigures":[]},"#
        + #"{"sectionDeletes":[],"sectionInserts":[],"sectionMoves":[],"sectionReloads":[],"itemDeletes":[],"itemInserts":[],"itemMoves":[],"itemReloads":[{"section":0,"item":1}],"itemReconfigures":[]}]}"#)
    #expect(changeset[0].after == Rows(sections: ["A", "B"], rows: [["a1", "n"], ["b1", "a2"]]))
    #expect(changeset[1].after == nil && changeset[2].after == nil)
  }

  @Test func sectionLinesNameTheSections() {
    let old = Rows(sections: ["A", "B", "C"], rows: [["a"], ["b"], ["c"]])
    let new = Rows(sections: ["C", "A", "D"], rows: [["c"], ["a"], []])
    let changeset = ListChangeset(from: old, to: new, sectionNeedsReload: { $0 == "A" })
    #expect(changeset.lines == ["- deleted section B", "+ inserted section D", "→ moved section C", "~ reloaded section A"])
  }
}
