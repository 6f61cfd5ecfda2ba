@testable import ListHistory
import Testing

/// The pages a pipelined replay's decoding thread requests ahead of the history's appends
/// (`_AppendPageRequests`): whole pages only, from the next append up to the lookahead within
/// the reserved capacity, each page once.
@Suite struct AppendPrefaulterTests {
  typealias Region = _AppendPrefaulter.Region
  let page: UInt = 4_096

  func pages(_ region: Region, after requestedEnd: UInt = 0, lookahead: UInt = 65_536) -> Range<UInt>? {
    _AppendPageRequests.pagesToRequest(in: region, after: requestedEnd, pageSize: page, lookahead: lookahead)
  }

  @Test func wholePagesFromTheNextAppendUpToTheLookahead() {
    // 80-byte elements from 0x10_0010: the next append at 0x10_0010 + 100 * 80 = 0x10_1f50.
    let region = Region(base: 0x10_0010, stride: 80, count: 100, capacity: 1_000_000)
    #expect(pages(region) == 0x10_2000..<0x11_1000)  // its page is in use; 64 KiB on, rounded down
  }

  @Test func neitherPastTheCapacityNorTwice() {
    let region = Region(base: 0x20_0000, stride: 64, count: 10, capacity: 1_000)  // ends at 0x20_fa00
    #expect(pages(region) == 0x20_1000..<0x20_f000)
    #expect(pages(region, after: 0x20_f000) == nil, "every page up to the capacity was requested")
    #expect(pages(region, after: 0x20_8000) == 0x20_8000..<0x20_f000)
    #expect(pages(Region(base: 0x20_0000, stride: 64, count: 1_000, capacity: 1_000)) == nil, "full")
    #expect(pages(Region(base: 0, stride: 64, count: 0, capacity: 0)) == nil, "no storage")
  }

  @Test func requestingIsHarmlessForAnyRegion() {
    // A region whose storage moved on (or was never mapped) is only a failed request.
    var requests = _AppendPageRequests()
    requests.request([Region(base: 0x1000, stride: 8, count: 0, capacity: 1 << 20)])
    var values = ContiguousArray<Int>()
    values.reserveCapacity(100_000)
    values.append(1)
    let region = values.withUnsafeBufferPointer {
      Region(base: UInt(bitPattern: $0.baseAddress), stride: 8, count: values.count, capacity: values.capacity)
    }
    requests.request([region])
    for index in 1..<100_000 { values.append(index) }
    let expected: Int = 1 + 99_999 * 100_000 / 2
    #expect(values.reduce(0, +) == expected)  // what the pages hold is untouched
  }
}
