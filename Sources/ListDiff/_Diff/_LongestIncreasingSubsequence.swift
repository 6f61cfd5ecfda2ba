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
/// - Complexity: O(k log k) time for k values, O(k) when they are mostly increasing (the common
///   case: extending the longest run costs one comparison); two k-sized `Int32` buffers.
@inlinable
func _longestIncreasingSubsequenceMembership(_ values: [Int]) -> [Bool] {
  values.withUnsafeBufferPointer { _longestIncreasingSubsequenceMembership($0) }
}

/// The same over a buffer (the diff's scratch space).
@inlinable
func _longestIncreasingSubsequenceMembership(_ values: UnsafeBufferPointer<Int>) -> [Bool] {
  let count = values.count
  guard count > 0 else { return [] }
  precondition(count < Int(Int32.max), "too many values for Int32 links")
  var isMember = [Bool](repeating: false, count: count)
  withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { predecessor in
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { tails in
      var length = 0
      // The value at `tails[length - 1]`: the end of the longest run so far.
      var last = Int.min
      for index in 0..<count {
        let value = values[index]
        // Fast path: extending the longest run is the common case for mostly ordered input.
        if length > 0, last < value {
          predecessor[index] = tails[length - 1]
          tails[length] = Int32(truncatingIfNeeded: index)
          length += 1
          last = value
          continue
        }
        var low = 0
        var high = length
        while low < high {
          let middle = (low + high) >> 1
          if values[Int(tails[middle])] < value { low = middle + 1 } else { high = middle }
        }
        predecessor[index] = low > 0 ? tails[low - 1] : -1
        tails[low] = Int32(truncatingIfNeeded: index)
        if low == length { length += 1 }
        if low == length - 1 { last = value }
      }
      isMember.withUnsafeMutableBufferPointer { isMember in
        var cursor = Int(tails[length - 1])
        while cursor >= 0 {
          isMember[cursor] = true
          cursor = Int(predecessor[cursor])
        }
      }
    }
  }
  return isMember
}
