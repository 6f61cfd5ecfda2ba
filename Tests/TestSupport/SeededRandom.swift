#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A seeded SplitMix64 random number generator: the same seed always gives the same sequence,
/// on every platform, so a failing property test can be replayed from its seed.
///
/// ```swift
/// var rng = SeededRandom(seed: 42)
/// let roll = Int.random(in: 1...6, using: &rng)   // the same on every run
/// ```
///
/// - Complexity: O(1) per number.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  public private(set) var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// True with probability `probability`.
  public mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }
}

extension SeededRandom {
  /// The number of steps a property test should run: `defaultSteps`, or the value of the
  /// environment variable `LISTJOURNAL_PROPERTY_STEPS` when set (for long soak runs).
  ///
  /// ```swift
  /// let steps = SeededRandom.propertySteps(default: 1_500)
  /// ```
  public static func propertySteps(default defaultSteps: Int) -> Int {
    guard let text = getenv("LISTJOURNAL_PROPERTY_STEPS").map({ String(cString: $0) }), let steps = Int(text), steps > 0
    else { return defaultSteps }
    return steps
  }
}
