/// Marks the members of one longest strictly increasing subsequence of `values`.
///
/// The changeset reports as moved exactly the common elements *outside* this subsequence, which
/// is the minimum number of moves that reorders the common elements (every element kept in place
/// must keep its relative order, so at most an increasing subsequence can stay).
///
/// Patience sorting: `tails[k]` is the index of the smallest value ending an increasing run of
/// length `k + 1`; `predecessor` links each element to the previous one of its run.
///
/// ```swift
/// _longestIncreasingSubsequenceMembership([3, 0, 1, 4, 2])  // [false, true, true, false, true]
/// ```
///
/// - Complexity: O(k log k) time for k values; two k-sized `Int32` buffers.
@inlinable
func _longestIncreasingSubsequenceMembership(_ values: [Int]) -> [Bool] {
  let count = values.count
  var isMember = [Bool](repeating: false, count: count)
  guard count > 0 else { return isMember }
  var tails = [Int32]()
  tails.reserveCapacity(min(count, 1 << 16))
  var predecessor = [Int32](repeating: -1, count: count)
  values.withUnsafeBufferPointer { values in
    for index in 0..<count {
      let value = values[index]
      // Fast path: extending the longest run is the common case for mostly ordered input.
      if let last = tails.last, values[Int(last)] < value {
        predecessor[index] = last
        tails.append(Int32(index))
        continue
      }
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) >> 1
        if values[Int(tails[middle])] < value { low = middle + 1 } else { high = middle }
      }
      predecessor[index] = low > 0 ? tails[low - 1] : -1
      if low == tails.count { tails.append(Int32(index)) } else { tails[low] = Int32(index) }
    }
  }
  var cursor = Int(tails[tails.count - 1])
  while cursor >= 0 {
    isMember[cursor] = true
    cursor = Int(predecessor[cursor])
  }
  return isMember
}
