/// The length of the longest strictly increasing subsequence, by the O(n²) textbook method: the
/// oracle for the minimal number of moves (`count - LIS`) the diffs must achieve.
///
/// ```swift
/// naiveLISLength([3, 1, 2, 5, 4])   // 3 (1, 2, 5)
/// ```
///
/// - Complexity: O(n²).
func naiveLISLength(_ values: [Int]) -> Int {
  var best = [Int](repeating: 1, count: values.count)
  for i in values.indices {
    for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
  }
  return best.max() ?? 0
}
