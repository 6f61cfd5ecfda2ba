/// Searching sorted `UInt64` keys (order labels, hashes) that are spread roughly evenly — as
/// labels from bulk builds and relabeling windows, and hashes always, are.
///
/// Interpolation guesses the position from the key's value, then gallops outwards from the guess
/// and finishes with a binary search. On evenly spread keys the guess is within a slot or two,
/// so a search reads about three cache lines instead of a binary search's five or six; on
/// uneven keys it degrades gracefully to O(log n).
@usableFromInline
enum _InterpolationSearch {
  /// The first index `i` with `keys[i] >= key` (`keys.count` when none).
  @inlinable
  static func lowerBound(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int {
    let count = keys.count
    guard count > 0 else { return 0 }
    let first = keys[0]
    if key <= first { return 0 }
    let last = keys[count - 1]
    if key > last { return count }
    if count <= 8 {
      var i = 1
      while keys[i] < key { i += 1 }
      return i
    }
    // keys[0] < key <= keys[count - 1]: the answer is in 1...count-1.
    let fraction = Double(key - first) / Double(last - first)
    let guess = Swift.min(Swift.max(Int(fraction * Double(count - 1)), 1), count - 1)
    var low: Int  // keys[low - 1] < key is known
    var high: Int  // keys[high] >= key is known
    if keys[guess] >= key {
      high = guess
      var step = 1
      while true {
        let probe = high - step
        if probe <= 0 {
          low = 1
          break
        }
        if keys[probe] < key {
          low = probe + 1
          break
        }
        high = probe
        step &<<= 1
      }
    } else {
      low = guess + 1
      var step = 1
      while true {
        let probe = low - 1 + step
        if probe >= count - 1 {
          high = count - 1
          break
        }
        if keys[probe] >= key {
          high = probe
          break
        }
        low = probe + 1
        step &<<= 1
      }
    }
    while low < high {
      let mid = (low + high) >> 1
      if keys[mid] < key { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// The last index `i` with `keys[i] <= key`, or 0 when none (the child that covers `key`).
  @inlinable
  static func lastNotAbove(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int {
    guard key < UInt64.max else { return Swift.max(keys.count - 1, 0) }
    return Swift.max(lowerBound(keys, key + 1) - 1, 0)
  }
}
