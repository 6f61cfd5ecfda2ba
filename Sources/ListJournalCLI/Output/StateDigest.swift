/// A short fingerprint of a list state: FNV-1a (64-bit) over its canonical JSON, so two replays
/// that print the same digest hold the same sections, items, contents and expansion.
///
/// ```swift
/// StateDigest.of(snapshot)   // "9c1f0e3a7b2d4c55"
/// ```
///
/// - Complexity: O(n) in the state's size.
enum StateDigest {
  static func of(_ snapshot: TextSnapshot) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in SnapshotRenderer.jsonWriter(snapshot, version: 0).bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
