import CMemoryHints
import ListLocking

/// Where a pipelined replay's history appends next, published by the folding thread, so that
/// the decoding thread faults in the pages just ahead of it.
///
/// Why: a long replay appends versions and events to large arrays reserved up front, and each
/// first write to one of their pages is a page fault on the folding thread — the thread that
/// bounds the replay once the decoder leaves remembered items to it. The decoding thread has
/// time to spare then, and asking the kernel to back a range (`cmemoryhints_populate`) costs it
/// less than the faults would cost the fold. Only a hint: the pages' contents never change, and
/// a range the arrays left (grown elsewhere) is harmless to request. See
/// Tools/Benchmarks/README.md, Replay.
@usableFromInline
final class _AppendPrefaulter: Sendable {
  @inlinable
  init() {}

  /// One array's storage.
  @usableFromInline
  struct Region: Sendable {
    @usableFromInline var base: UInt
    @usableFromInline var stride: Int
    /// Elements in use: the next append writes after them.
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int

    @inlinable
    init(base: UInt, stride: Int, count: Int, capacity: Int) {
      self.base = base
      self.stride = stride
      self.count = count
      self.capacity = capacity
    }
  }

  @usableFromInline let published = ListMutex<[Region]>([])

  /// Publishes where the arrays stand (the folding thread, after each batch).
  @inlinable
  func publish(_ regions: [Region]) { published.withLock { $0 = regions } }

  /// Publishes where the two arrays a commit appends to stand: `graph`'s versions and events.
  @inlinable
  func publish<Section, Item>(appendsOf graph: _HistoryGraph<Section, Item>) {
    publish([Self.region(of: graph.nodes.storage), Self.region(of: graph.events)])
  }

  /// The storage of `array`, as a region.
  @inlinable
  static func region<Element>(of array: ContiguousArray<Element>) -> Region {
    array.withUnsafeBufferPointer { buffer in
      Region(
        base: UInt(bitPattern: buffer.baseAddress), stride: MemoryLayout<Element>.stride, count: array.count,
        capacity: array.capacity)
    }
  }

  /// Where the arrays stood when last published.
  @inlinable
  func regions() -> [Region] { published.withLock { $0 } }
}

/// The decoding thread's side of an ``_AppendPrefaulter``: requests the pages of each published
/// region from where its array appends next to ``lookaheadBytes`` beyond, each page once.
@usableFromInline
struct _AppendPageRequests {
  /// How far past the next append the pages are requested: a few thousand commits' worth.
  @inlinable
  static var lookaheadBytes: UInt { 4 << 20 }
  @usableFromInline static let pageSize = UInt(cmemoryhints_page_size())

  /// The end of what was requested, by region base address.
  @usableFromInline var requestedEnd: [UInt: UInt] = [:]

  @inlinable
  init(requestedEnd: [UInt: UInt] = [:]) {
    self.requestedEnd = requestedEnd
  }

  /// Requests the pages of `regions` not yet requested, up to the lookahead.
  ///
  /// - Complexity: O(regions), plus the kernel's work on the new pages.
  @inlinable
  mutating func request(_ regions: [_AppendPrefaulter.Region]) {
    for region in regions {
      guard
        let pages = Self.pagesToRequest(
          in: region, after: requestedEnd[region.base] ?? 0, pageSize: Self.pageSize, lookahead: Self.lookaheadBytes),
        let start = UnsafeMutableRawPointer(bitPattern: pages.lowerBound)
      else { continue }
      _ = cmemoryhints_populate(start, pages.upperBound - pages.lowerBound)
      requestedEnd[region.base] = pages.upperBound
    }
  }

  /// The whole pages of `region` from its next append up to `lookahead` bytes beyond (within
  /// its capacity), less those below `requestedEnd`; nil when none are left.
  @inlinable
  static func pagesToRequest(
    in region: _AppendPrefaulter.Region, after requestedEnd: UInt, pageSize: UInt, lookahead: UInt
  ) -> Range<UInt>? {
    guard region.capacity > region.count else { return nil }
    let next = region.base + UInt(region.count * region.stride)
    let end = min(region.base + UInt(region.capacity * region.stride), next + lookahead)
    // Whole pages only: the page of `next` is partly written already, so it is backed.
    let from = (max(next, requestedEnd) + pageSize - 1) & ~(pageSize - 1)
    let to = end & ~(pageSize - 1)
    return to > from ? from..<to : nil
  }
}
