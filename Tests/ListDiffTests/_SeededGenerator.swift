/// SplitMix64: a tiny deterministic generator so every random test is reproducible from its seed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Property-test step count: `LISTJOURNAL_PROPERTY_STEPS` or a small default.
func propertySteps(default value: Int) -> Int {
  #if canImport(Glibc) || canImport(Darwin) || canImport(Musl)
  if let text = getenv("LISTJOURNAL_PROPERTY_STEPS"), let steps = Int(String(cString: text)) { return steps }
  #endif
  return value
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The longest increasing subsequence length by the O(n²) textbook method (the oracle).
func naiveLISLength(_ values: [Int]) -> Int {
  var best = [Int](repeating: 1, count: values.count)
  for i in values.indices {
    for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
  }
  return best.max() ?? 0
}
