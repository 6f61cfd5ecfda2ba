/// The positions of a longest strictly increasing subsequence of `values` (patience sorting):
/// the rows that keep their place while the others move.
///
/// - Complexity: O(n log n).
func _longestIncreasingRun(_ values: [Int]) -> Set<Int> {
  var tails: [Int] = []  // tails[k]: position of the smallest tail of a run of length k + 1
  var previous = [Int](repeating: -1, count: values.count)
  for (position, value) in values.enumerated() {
    var low = 0
    var high = tails.count
    while low < high {
      let middle = (low + high) / 2
      if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
    }
    if low > 0 { previous[position] = tails[low - 1] }
    if low == tails.count { tails.append(position) } else { tails[low] = position }
  }
  var run = Set<Int>()
  var position = tails.last ?? -1
  while position >= 0 {
    run.insert(position)
    position = previous[position]
  }
  return run
}
