/// Searching a node's sorted `UInt64` keys (order labels, hashes).
///
/// (Interpolation search was tried here: on evenly spread labels and hashes it reads fewer
/// cache lines, but its floating-point guess made every in-cache search slower, which cost more
/// overall than it saved at a million items.)
@usableFromInline
enum _SortedSearch {
  /// The first index `i` with `keys[i] >= key` (`keys.count` when none).
  @inlinable
  static func lowerBound(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int {
    // A branch-light binary search: within one node (at most 64 keys) this beats
    // interpolation, whose floating-point guess costs more than the probes it saves.
    var base = 0
    var length = keys.count
    while length > 1 {
      let half = length >> 1
      if keys[base + half - 1] < key { base += half }
      length -= half
    }
    return base + (length == 1 && keys[base] < key ? 1 : 0)
  }

  /// The last index `i` with `keys[i] <= key`, or 0 when none (the child that covers `key`).
  @inlinable
  static func lastNotAbove(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int {
    guard key < UInt64.max else { return Swift.max(keys.count - 1, 0) }
    return Swift.max(lowerBound(keys, key + 1) - 1, 0)
  }
}
