/// SplitMix64: a small, fast, seeded generator so every property-test failure is reproducible.
struct SeededRandom: RandomNumberGenerator {
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

/// Steps per property test: a few hundred by default, more with `LISTJOURNAL_PROPERTY_STEPS`.
func propertySteps(_ defaultValue: Int) -> Int {
  #if canImport(Glibc) || canImport(Darwin)
  if let text = getenvString("LISTJOURNAL_PROPERTY_STEPS"), let value = Int(text), value > 0 { return value }
  #endif
  return defaultValue
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func getenvString(_ name: String) -> String? {
  guard let raw = getenv(name) else { return nil }
  return String(cString: raw)
}
