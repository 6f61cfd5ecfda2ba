import BenchmarkSupport

/// A set of identifiers that also draws a uniformly random member in O(1): an array with each
/// member's position (a removal moves the last member into the gap).
struct IndexedSet {
  private var members: [String] = []
  private var positions: [String: Int] = [:]

  var count: Int { members.count }
  var isEmpty: Bool { members.isEmpty }

  func contains(_ member: String) -> Bool { positions[member] != nil }

  mutating func insert(_ member: String) {
    guard positions[member] == nil else { return }
    positions[member] = members.count
    members.append(member)
  }

  mutating func remove(_ member: String) {
    guard let position = positions.removeValue(forKey: member) else { return }
    let last = members.removeLast()
    if position < members.count {
      members[position] = last
      positions[last] = position
    }
  }

  func randomMember(using random: inout SplitMix) -> String {
    members[Int.random(in: 0..<members.count, using: &random)]
  }
}
