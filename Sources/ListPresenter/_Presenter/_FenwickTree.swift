/// Counts per slot with O(log n) prefix sums and updates: where rows sit while a batch is
/// replayed one operation at a time.
struct _FenwickTree {
  private var tree: [Int]

  /// `count` slots, all zero.
  init(count: Int) { tree = Array(repeating: 0, count: count + 1) }

  /// Adds `delta` to slot `index`.
  ///
  /// - Complexity: O(log n).
  mutating func add(_ delta: Int, at index: Int) {
    var position = index + 1
    while position < tree.count {
      tree[position] += delta
      position += position & -position
    }
  }

  /// The sum of the slots before `index`.
  ///
  /// - Complexity: O(log n).
  func prefix(_ index: Int) -> Int {
    var sum = 0
    var position = index
    while position > 0 {
      sum += tree[position]
      position -= position & -position
    }
    return sum
  }
}
