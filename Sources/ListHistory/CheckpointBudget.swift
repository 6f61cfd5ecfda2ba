import ListState

/// How much memory a store's in-memory checkpoints may hold.
///
/// A store keeps a full state (a checkpoint) every `checkpointInterval` events along each
/// branch, so that time travel folds at most about that many events. Snapshots share structure,
/// but each checkpoint keeps the tree nodes that later changes copy: on a large list edited all
/// over, up to a whole copy of the list per checkpoint. Without a bound, memory then grows with
/// the length of the history.
///
/// With a budget, the store estimates what its checkpoints hold (``estimatedCost(of:)``, an upper
/// bound from their item counts). When a new checkpoint would exceed the budget, it doubles its
/// checkpoint interval and drops every checkpoint that is now closer than that to the checkpoint
/// kept before it on its branch (about every other one), until the estimate fits. Version 0's
/// checkpoint is always kept and not counted. The interval given at creation is thus the
/// *minimum* spacing; the current one is ``ListStore/checkpointInterval``. Checkpoints stay
/// roughly evenly spaced over the history, and time travel folds fewer than twice the current
/// interval's events (plus one transaction). The interval never shrinks back: a list that was
/// once large keeps the spacing it needed then.
///
/// ```swift
/// let store = ListStore<String, Row>()                                   // the default: 256 MiB
/// let small = ListStore<String, Row>(checkpointBudget: .bytes(32 << 20))  // for a phone
/// let fixed = ListStore<String, Row>(checkpointInterval: 16_384, checkpointBudget: .unbounded)
/// small.checkpointInterval                                                // 4,096 until the budget is reached
/// ```
///
/// - Complexity: a thinning pass costs O(versions + events) and doubles the interval, so a
///   history of `n` events sees at most log₂(n ÷ minimum interval) of them; on a list of steady
///   size they come at geometrically spaced history lengths (amortized O(1) per event).
public struct CheckpointBudget: Sendable, Hashable, CustomStringConvertible {
  /// The estimated bytes the checkpoints (other than version 0's) may hold; nil for no limit.
  public var maximumBytes: Int?

  /// A budget of `maximumBytes` estimated bytes (nil: unbounded; a negative count is 0, which
  /// keeps only version 0's checkpoint).
  @inlinable
  public init(maximumBytes: Int?) {
    self.maximumBytes = maximumBytes.map { max(0, $0) }
  }

  /// A budget of `bytes` estimated bytes.
  @inlinable
  public static func bytes(_ bytes: Int) -> CheckpointBudget { CheckpointBudget(maximumBytes: bytes) }

  /// No limit: one checkpoint every `checkpointInterval` events, however long the history (the
  /// behaviour before budgets existed).
  @inlinable
  public static var unbounded: CheckpointBudget { CheckpointBudget(maximumBytes: nil) }

  /// The library's default: 256 MiB — about two thousand checkpoints of a 1,000-item list, or
  /// twenty of a 100,000-item one.
  @inlinable
  public static var `default`: CheckpointBudget { .bytes(256 << 20) }

  /// The estimate's cost of one item: a large persistent snapshot measures 100–115 bytes per
  /// item in release builds (its item records, the order trees and the identifier index).
  @inlinable
  public static var estimatedBytesPerItem: Int { 128 }

  /// The estimated memory a checkpoint of `snapshot` holds at most: its items and sections at
  /// ``estimatedBytesPerItem`` each, plus 1 KiB. (What it really holds is the part of its tree
  /// that later changes replaced — all of it, on a large list edited at random.)
  ///
  /// - Complexity: O(1).
  @inlinable
  public static func estimatedCost<Section, Item>(of snapshot: ListSnapshot<Section, Item>) -> Int {
    estimatedCost(items: snapshot.numberOfItems, sections: snapshot.numberOfSections)
  }

  /// The estimate for the state a fold holds (a flat replay's pending checkpoint), the same as
  /// for the snapshot it builds.
  @inlinable
  static func estimatedCost<Section, Item>(of fold: ListFold<Section, Item>) -> Int {
    estimatedCost(items: fold.numberOfItems, sections: fold.numberOfSections)
  }

  /// The estimate for a state of `items` items in `sections` sections.
  @inlinable
  static func estimatedCost(items: Int, sections: Int) -> Int {
    (items + sections) * estimatedBytesPerItem + 1_024
  }

  @inlinable
  public var description: String {
    guard let maximumBytes else { return "unbounded" }
    return maximumBytes % (1 << 20) == 0 ? "\(maximumBytes >> 20) MiB" : "\(maximumBytes) bytes"
  }
}
