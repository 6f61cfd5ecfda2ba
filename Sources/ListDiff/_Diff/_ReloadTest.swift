/// Which rows present in both states a stage reloads: those an identifier predicate picks, and
/// those at marked positions of the stage's after state.
///
/// A predicate is what ``ListChangeset/init(from:to:sectionNeedsReload:itemNeedsReload:)`` is
/// given, and costs a call (usually a hash) per common row. A snapshot diff knows the few items
/// to reload up front (markers, changed contents) and marks their rows instead: a bit test per
/// common row, no hashing.
///
/// ```swift
/// var rows = _RowSet(rowCounts: [3, 2])
/// rows.insert(section: 1, row: 0)
/// let test = _ReloadTest<String>(rows: rows)
/// test("b", section: 1, row: 0)   // true
/// ```
///
/// - Complexity: a call is O(1) plus the predicate.
@usableFromInline
struct _ReloadTest<ItemID> {
  /// False when nothing is ever reloaded (the stage then asks nothing).
  @usableFromInline
  let isActive: Bool
  @usableFromInline
  let usesPredicate: Bool
  /// Always set (a constant when unused): calling a stored closure directly costs no retain,
  /// where unwrapping an optional one per row did.
  @usableFromInline
  let predicate: (ItemID) -> Bool
  @usableFromInline
  let usesRows: Bool
  @usableFromInline
  let rows: _RowSet
  /// Per section of the stage's after state, its section in `rows`; nil: the same.
  @usableFromInline
  let sectionInRows: [Int]?

  /// Nothing is reloaded.
  @inlinable
  init() {
    self.init(predicate: nil, rows: nil, sectionInRows: nil)
  }

  @inlinable
  init(predicate: ((ItemID) -> Bool)? = nil, rows: _RowSet? = nil, sectionInRows: [Int]? = nil) {
    usesPredicate = predicate != nil
    self.predicate = predicate ?? { _ in false }
    usesRows = rows != nil
    self.rows = rows ?? _RowSet(rowCounts: [])
    self.sectionInRows = sectionInRows
    isActive = usesPredicate || usesRows
  }

  /// The same test for a stage whose after state numbers sections differently: section `s`
  /// there is section `map[s]` of this test's.
  @inlinable
  func mappingSections(_ map: [Int]) -> _ReloadTest {
    let composed = sectionInRows.map { inner in map.map { $0 >= 0 ? inner[$0] : -1 } } ?? map
    return _ReloadTest(predicate: usesPredicate ? predicate : nil, rows: usesRows ? rows : nil, sectionInRows: composed)
  }

  /// Whether the row `id` at `row` of `section` (in the stage's after state) is reloaded.
  @inlinable
  func callAsFunction(_ id: ItemID, section: Int, row: Int) -> Bool {
    if usesRows {
      let marked = rows.contains(section: sectionInRows.map { $0[section] } ?? section, row: row)
      if marked { return true }
    }
    return usesPredicate && predicate(id)
  }
}
