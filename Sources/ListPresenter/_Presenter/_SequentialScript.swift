/// Turns one batch in UIKit's terms over a single list of rows — deletes and move sources counted
/// before it, inserts and move destinations after it — into steps applied one after another
/// (``ListSequentialUpdate``), with as many moves as the batch has.
///
/// The deletes go first, in one step. Then the after positions are filled lowest first: an
/// inserted row goes in, a moved row is taken from where it is now and put in, each right after
/// the row that precedes it in the after state. Rows neither deleted nor moved ("kept") never
/// change order, so once every position is filled the rows are the after state. Where a moved
/// row is now is counted with two Fenwick trees over the kept rows (those still to move, and
/// those already placed after each kept row), so a batch of m operations over n rows costs
/// O(n + m log n).
struct _SequentialScript {
  /// The steps, in order.
  private(set) var steps: [ListSequentialUpdate] = []
  /// For each row of the before state: its after index when it is kept in place, else -1.
  private var afterOfBefore: [Int]

  /// The script of a batch, or nil when the batch does not add up (an index out of range or
  /// listed twice, a moved row also deleted, counts that miss the after state).
  ///
  /// - Complexity: O(n + m log n) for n rows and m operations.
  init?(beforeCount: Int, afterCount: Int, deletes: [Int], inserts: [Int], moves: [(from: Int, to: Int)]) {
    var deleted = [Bool](repeating: false, count: beforeCount)
    for index in deletes {
      guard deleted.indices.contains(index), !deleted[index] else { return nil }
      deleted[index] = true
    }
    // The index of each remaining row among the rows left after the deletes.
    var kept = [Int](repeating: -1, count: beforeCount)
    var keptCount = 0
    for index in 0..<beforeCount where !deleted[index] {
      kept[index] = keptCount
      keptCount += 1
    }
    guard afterCount == keptCount + inserts.count, moves.count <= keptCount else { return nil }
    // What fills each after position: -1 unknown yet, -2 an insert, else the kept index moved there.
    var special = [Int](repeating: -1, count: afterCount)
    var moved = [Bool](repeating: false, count: keptCount)
    for index in inserts {
      guard special.indices.contains(index), special[index] == -1 else { return nil }
      special[index] = -2
    }
    for move in moves {
      guard kept.indices.contains(move.from), kept[move.from] >= 0, special.indices.contains(move.to),
        special[move.to] == -1, !moved[kept[move.from]]
      else { return nil }
      moved[kept[move.from]] = true
      special[move.to] = kept[move.from]
    }
    // Kept rows that stay fill the remaining after positions in order.
    var stayingAfter = [Int](repeating: -1, count: keptCount)
    var stayingBefore = [Int](repeating: 0, count: keptCount + 1)  // staying rows before each kept index
    var anchor = [Int](repeating: -1, count: afterCount)  // the staying row a special position follows
    var nextKept = 0
    var lastStaying = -1
    for position in 0..<afterCount {
      if special[position] != -1 {
        anchor[position] = lastStaying
        continue
      }
      while nextKept < keptCount, moved[nextKept] { nextKept += 1 }
      guard nextKept < keptCount else { return nil }
      stayingAfter[nextKept] = position
      lastStaying = nextKept
      nextKept += 1
    }
    for index in 0..<keptCount { stayingBefore[index + 1] = stayingBefore[index] + (moved[index] ? 0 : 1) }
    afterOfBefore = kept.map { $0 >= 0 ? stayingAfter[$0] : -1 }

    if !deletes.isEmpty { steps.append(.remove(deletes.sorted())) }
    var unplaced = _FenwickTree(count: keptCount)
    for index in 0..<keptCount where moved[index] { unplaced.add(1, at: index) }
    var placed = _FenwickTree(count: keptCount)
    var placedFirst = 0  // placed rows that precede every staying row
    var insertRun: [Int] = []
    for position in 0..<afterCount where special[position] != -1 {
      let root = anchor[position]
      if special[position] == -2 {
        let at = position + (root >= 0 ? unplaced.prefix(root) : 0)
        // One step inserts ascending positions; anything else starts another.
        if let last = insertRun.last, at <= last {
          steps.append(.insert(insertRun))
          insertRun = []
        }
        insertRun.append(at)
      } else {
        let index = special[position]
        let from = stayingBefore[index] + placedFirst + placed.prefix(index) + unplaced.prefix(index)
        unplaced.add(-1, at: index)
        let to = position + (root >= 0 ? unplaced.prefix(root) : 0)
        if from != to {
          if !insertRun.isEmpty { steps.append(.insert(insertRun)) }
          insertRun = []
          steps.append(.move(from, to: to))
        }
      }
      if root >= 0 { placed.add(1, at: root) } else { placedFirst += 1 }
    }
    if !insertRun.isEmpty { steps.append(.insert(insertRun)) }
  }

  /// Where a row of the before state that was neither deleted nor moved ends; nil for others.
  ///
  /// - Complexity: O(1).
  func afterIndex(ofKept before: Int) -> Int? {
    guard afterOfBefore.indices.contains(before), afterOfBefore[before] >= 0 else { return nil }
    return afterOfBefore[before]
  }
}
