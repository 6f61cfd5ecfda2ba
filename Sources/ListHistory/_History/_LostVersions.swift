/// The versions of a history whose states are unknown (lost in a journal's repair), as sorted,
/// disjoint runs: a gap of a million versions is one run, not a million entries.
///
/// ```swift
/// var lost = _LostVersions()
/// lost.insert(151...199)
/// lost.remove(199)            // a checkpoint resumed the history there
/// lost.run(containing: 170)   // 151...198
/// ```
@usableFromInline
struct _LostVersions: Sendable, Hashable {
  @usableFromInline private(set) var runs: [ClosedRange<Int>] = []

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { runs.isEmpty }

  /// The run holding `version`, nil when it is not lost.
  ///
  /// - Complexity: O(log runs).
  @inlinable
  func run(containing version: Int) -> ClosedRange<Int>? {
    guard !runs.isEmpty else { return nil }
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].upperBound < version { low = middle + 1 } else { high = middle }
    }
    return low < runs.count && runs[low].contains(version) ? runs[low] : nil
  }

  @inlinable
  func contains(_ version: Int) -> Bool { run(containing: version) != nil }

  /// The newest run that ends before `version`, nil when none.
  ///
  /// - Complexity: O(runs).
  @inlinable
  func run(before version: Int) -> ClosedRange<Int>? {
    runs.last { $0.upperBound < version }
  }

  /// Adds versions newer than every lost one (the history only grows at its end).
  ///
  /// - Complexity: O(1).
  @inlinable
  mutating func insert(_ versions: ClosedRange<Int>) {
    assert(runs.last.map { $0.upperBound < versions.lowerBound } ?? true, "lost versions out of order")
    if let last = runs.last, last.upperBound + 1 == versions.lowerBound {
      runs[runs.count - 1] = last.lowerBound...versions.upperBound
    } else {
      runs.append(versions)
    }
  }

  /// Marks `version` known again (its state came back from a checkpoint).
  ///
  /// - Complexity: O(runs).
  @inlinable
  mutating func remove(_ version: Int) {
    guard let index = runs.firstIndex(where: { $0.contains(version) }) else { return }
    let run = runs[index]
    var pieces: [ClosedRange<Int>] = []
    if run.lowerBound < version { pieces.append(run.lowerBound...(version - 1)) }
    if version < run.upperBound { pieces.append((version + 1)...run.upperBound) }
    runs.replaceSubrange(index...index, with: pieces)
  }
}
