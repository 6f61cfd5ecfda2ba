/// Searching a node's sorted `UInt64` keys (order labels, hashes).
///
/// Keys may be strided (a key field at the start of a larger slot): `stride` counts `UInt64`
/// words between consecutive keys.
///
/// The searches that take a `guess` start where interpolation expects the key and walk from
/// there, bisecting what is left after a few steps. On evenly spread keys (hashes always;
/// labels after relabelling) the guess is a slot or two off, so a search of a node that is not
/// in the cache reads one cache line instead of the three or four a bisection touches; on
/// skewed keys the walk gives up early and the cost stays about that of a bisection.
@usableFromInline
enum _SortedSearch {
  /// The first index `i` with `keys[i] >= key` (`keys.count` when none).
  @inlinable
  static func lowerBound(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int {
    guard let base = keys.baseAddress else { return 0 }
    return lowerBound(base, stride: 1, count: keys.count, key, guess: keys.count >> 1)
  }

  /// The last index `i` with `keys[i] <= key`, or 0 when none (the child that covers `key`).
  @inlinable
  static func lastNotAbove(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int {
    guard let base = keys.baseAddress else { return 0 }
    return lastNotAbove(base, stride: 1, count: keys.count, key, guess: keys.count >> 1)
  }

  /// Where `key` would sit among `count` keys spread evenly over `low...high`.
  ///
  /// - Complexity: O(1) (one floating-point division).
  @_transparent
  @usableFromInline
  static func guess(_ key: UInt64, low: UInt64, high: UInt64, count: Int) -> Int {
    guard key > low else { return 0 }
    guard key < high else { return count &- 1 }
    // `high - low + 1` may be 2^64: the span is taken at half scale (a bit of precision a
    // guess does not need), which also keeps the conversions to the signed `Int` whose
    // conversion to `Double` is not a generic call in unspecialized code.
    let fraction = Double(Int(bitPattern: UInt((key &- low) >> 1))) / (Double(Int(bitPattern: UInt((high &- low) >> 1))) + 0.5)
    return Int(fraction * Double(count))
  }

  /// The first index `i` in `0..<count` with `keys[i * stride] >= key` (`count` when none),
  /// searching from `guess`: a short linear walk (the guess is usually a slot or two off), then
  /// a bisection of what is left when the walk gets long (skewed keys).
  ///
  /// - Complexity: O(d) for a guess d ≤ 8 slots off the answer, O(log count) otherwise.
  @_transparent
  @usableFromInline
  static func lowerBound(
    _ keys: UnsafePointer<UInt64>, stride: Int, count: Int, _ key: UInt64, guess: Int
  ) -> Int {
    // (Comparisons rather than `min`/`max`: those are generic calls in unspecialized code.)
    guard count > 0 else { return 0 }
    var i = guess < 0 ? 0 : guess < count ? guess : count &- 1
    if keys[i &* stride] < key {
      i &+= 1
      let limit = i &+ 8 < count ? i &+ 8 : count
      while i < limit {
        if keys[i &* stride] >= key { return i }
        i &+= 1
      }
      return i == count ? count : bisect(keys, stride: stride, low: i, high: count, key)
    }
    let limit = i > 8 ? i &- 8 : 0
    while i > limit {
      if keys[(i &- 1) &* stride] < key { return i }
      i &-= 1
    }
    return i == 0 ? 0 : bisect(keys, stride: stride, low: 0, high: i, key)
  }

  /// The first index in `low...high` whose key is `>= key`, given that the answer is in that
  /// range (`high` may be `count`).
  @inlinable
  static func bisect(_ keys: UnsafePointer<UInt64>, stride: Int, low: Int, high: Int, _ key: UInt64) -> Int {
    var low = low
    var high = high
    while low < high {
      let middle = (low &+ high) &>> 1
      if keys[middle &* stride] < key { low = middle &+ 1 } else { high = middle }
    }
    return low
  }

  /// The last index `i` in `0..<count` with `keys[i * stride] <= key`, or 0 when none,
  /// searching outwards from `guess`.
  @_transparent
  @usableFromInline
  static func lastNotAbove(
    _ keys: UnsafePointer<UInt64>, stride: Int, count: Int, _ key: UInt64, guess: Int
  ) -> Int {
    guard key < UInt64.max else { return count > 1 ? count &- 1 : 0 }
    let above = lowerBound(keys, stride: stride, count: count, key &+ 1, guess: guess &+ 1)
    return above > 1 ? above &- 1 : 0
  }
}
