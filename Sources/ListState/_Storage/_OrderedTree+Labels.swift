/// Order labels: handing out labels for new siblings, relabeling a window when there is no gap.
///
/// New elements get labels evenly spread in the gap between their neighbours; appends and
/// prepends step by ``labelGap`` (2^32) so that long runs of appends, prepends or bulk loads
/// leave room. When the gap is too small, a window of labels around the insertion point is
/// spread evenly again: the list-labeling scheme of Bender, Cole, Demaine, Farach-Colton and Zito
/// ("Two simplified algorithms for maintaining order in a list", 2002). The window is the
/// aligned label range of size 2^i containing the insertion point, for the smallest `i` whose
/// density (elements, counting the new ones, per label) is at most `T^-i` with `T` =
/// ``densityBase``. That gives O(log n) amortised relabels per insertion; each relabel also
/// updates the element's record, which the caller does from the `relabeled` list.
extension _OrderedTree {
  /// The step between consecutive labels of appended or prepended runs.
  @inlinable
  static var labelGap: UInt64 { 1 << 32 }
  /// The label around which the first run of an empty sequence is centred.
  @inlinable
  static var centreLabel: UInt64 { 1 << 63 }
  /// `T` of the density threshold `T^-i` (between 1 and 2).
  @inlinable
  static var densityBase: Double { 1.3 }

  /// Inserts `newEntries` (their labels are ignored) as a run starting at `index`, assigning
  /// labels; appends to `relabeled` every existing element whose label changed.
  ///
  /// - Returns: The labels given to the new entries, in order.
  /// - Complexity: O(k log n) plus amortised O(log n) relabels per inserted entry.
  @discardableResult
  @inlinable
  mutating func insert(contentsOf newEntries: [Entry], at index: Int, relabeled: inout [(ID, UInt64)]) -> [UInt64] {
    let k = newEntries.count
    guard k > 0 else { return [] }
    precondition(index >= 0 && index <= count, "_OrderedTree insertion index out of range")
    let run = makeRoom(at: index, count: k, relabeled: &relabeled)
    var labels: [UInt64] = []
    labels.reserveCapacity(k)
    var entries = newEntries
    var i = 0
    while i < k {
      let label = run.first &+ run.step &* UInt64(i)
      labels.append(label)
      entries[i].label = label
      i += 1
    }
    if index == count {
      append(sortedEntries: entries)
    } else {
      for entry in entries { insert(entry) }
    }
    return labels
  }

  /// Inserts `ids` as a run of leaf entries (each of weight 1) starting at `index`, assigning
  /// labels; appends to `relabeled` every existing element whose label changed. Into an empty
  /// tree, the tree is built bottom-up without an entry array.
  ///
  /// - Returns: The labels given to the new entries: `first + step * i` for the `i`th.
  /// - Complexity: O(k) into an empty tree; O(k log n) plus amortised O(log n) relabels per
  ///   inserted entry otherwise.
  @discardableResult
  @inlinable
  mutating func insert(
    leaves ids: UnsafeBufferPointer<ID>, at index: Int, relabeled: inout [(ID, UInt64)]
  ) -> (first: UInt64, step: UInt64) {
    let k = ids.count
    guard k > 0 else { return (0, 0) }
    precondition(index >= 0 && index <= count, "_OrderedTree insertion index out of range")
    let run = makeRoom(at: index, count: k, relabeled: &relabeled)
    insert(leaves: ids, labels: run)
    return run
  }

  /// Inserts `ids` as leaf entries (each of weight 1) labelled `run.first + run.step * i`,
  /// labels from ``labels(at:count:)`` or ``makeRoom(at:count:relabeled:)`` for their place.
  ///
  /// - Complexity: O(k) into an empty tree, else O(k log n).
  @inlinable
  mutating func insert(leaves ids: UnsafeBufferPointer<ID>, labels run: (first: UInt64, step: UInt64)) {
    if root == nil {
      self = _OrderedTree(ids: ids, firstLabel: run.first, step: run.step)
      return
    }
    var i = 0
    while i < ids.count {
      insert(Entry(label: run.first &+ run.step &* UInt64(i), id: ids[i], w1: 1, w2: 1))
      i += 1
    }
  }

  /// Returns `k` increasing labels that fit between the elements at `index - 1` and `index`
  /// (relabeling neighbours first when they do not fit), as a run: `first + step * i`.
  @inlinable
  mutating func makeRoom(at index: Int, count k: Int, relabeled: inout [(ID, UInt64)]) -> (first: UInt64, step: UInt64) {
    if let run = labels(at: index, count: k) { return run }
    let (lower, upper) = neighbourLabels(at: index)
    return relabelWindow(at: index, count: k, anchor: lower ?? upper!, relabeled: &relabeled)
  }

  /// The run of `k` increasing labels ``makeRoom(at:count:relabeled:)`` gives when the
  /// neighbours at `index - 1` and `index` leave room for them; nil when it would relabel.
  /// Reads only: a caller can take the labels first and place the entries afterwards.
  @inlinable
  func labels(at index: Int, count k: Int) -> (first: UInt64, step: UInt64)? {
    let newCount = UInt64(k)
    if count == 0 {
      let step = Swift.min(Self.labelGap, UInt64.max / (newCount + 1))
      return (Self.centreLabel - step * (newCount / 2), step)
    }
    switch neighbourLabels(at: index) {
    case (let lower?, nil):
      let step = Swift.min(Self.labelGap, (UInt64.max - lower) / (newCount + 1))
      if step >= 1 { return (lower + step, step) }
    case (nil, let upper?):
      let step = Swift.min(Self.labelGap, upper / (newCount + 1))
      if step >= 1 { return (upper - step * newCount, step) }
    case (let lower?, let upper?):
      let step = (upper - lower) / (newCount + 1)
      if step >= 1 { return (lower + step, step) }
    case (nil, nil):
      preconditionFailure("unreachable: non-empty tree")
    }
    return nil
  }

  /// A label strictly between `lower` and `upper` (either may be missing: the sequence's
  /// ends), chosen as ``makeRoom(at:count:relabeled:)`` chooses one for a single entry: the
  /// midpoint, or a gap of ``labelGap`` past an end. Nil when there is no room.
  @inlinable
  static func label(between lower: UInt64?, and upper: UInt64?) -> UInt64? {
    switch (lower, upper) {
    case (let lower?, nil):
      let step = Swift.min(labelGap, (UInt64.max - lower) / 2)
      return step >= 1 ? lower + step : nil
    case (nil, let upper?):
      let step = Swift.min(labelGap, upper / 2)
      return step >= 1 ? upper - step : nil
    case (let lower?, let upper?):
      let step = (upper - lower) / 2
      return step >= 1 ? lower + step : nil
    case (nil, nil):
      return centreLabel
    }
  }

  /// Spreads the labels of the smallest sparse-enough aligned window around `anchor` evenly,
  /// leaving `k` slots free at `index`, and returns those slots' labels as a run.
  @inlinable
  mutating func relabelWindow(
    at index: Int, count k: Int, anchor: UInt64, relabeled: inout [(ID, UInt64)]
  ) -> (first: UInt64, step: UInt64) {
    var threshold = 1.0
    for exponent in 1...62 {
      threshold /= Self.densityBase
      let size = UInt64(1) << UInt64(exponent)
      let windowLow = anchor & ~(size - 1)
      let (windowHigh, overflow) = windowLow.addingReportingOverflow(size)
      let first = lowerBound(ofLabel: windowLow)
      let end = overflow ? count : lowerBound(ofLabel: windowHigh)
      let total = (end - first) + k
      guard Double(total) <= Double(size) * threshold else { continue }
      let step = size / UInt64(total + 1)
      spread(first..<end, insertingAt: index, count: k, from: windowLow, step: step, relabeled: &relabeled)
      return (windowLow + step * UInt64(index - first + 1), step)
    }
    // The whole label space is dense: spread everything (only with hundreds of millions of
    // siblings).
    let total = count + k
    let step = UInt64.max / UInt64(total + 1)
    spread(0..<count, insertingAt: index, count: k, from: 0, step: step, relabeled: &relabeled)
    return (step * UInt64(index + 1), step)
  }

  /// Gives the elements in `range` the labels `base + step * (slot + 1)`, where the slots skip
  /// `k` positions at `index` for the entries about to be inserted.
  @inlinable
  mutating func spread(
    _ range: Range<Int>, insertingAt index: Int, count k: Int, from base: UInt64, step: UInt64,
    relabeled: inout [(ID, UInt64)]
  ) {
    let first = range.lowerBound
    relabel(range, { position in
      let slot = position - first + (position >= index ? k : 0)
      return base + step * UInt64(slot + 1)
    }, visit: { id, label in relabeled.append((id, label)) })
  }
}
