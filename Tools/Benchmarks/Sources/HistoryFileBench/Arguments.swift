import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command line of positional arguments and `--name value` options (or `--name` alone for a
/// flag), read by name; an unknown option or a malformed value ends the run with a message.
struct Arguments {
  private(set) var positional: [String] = []
  private var options: [String: String] = [:]
  private var used: Set<String> = []

  init(_ arguments: some Sequence<String>, flags: Set<String> = []) {
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      guard argument.hasPrefix("--") else {
        positional.append(argument)
        continue
      }
      let name = String(argument.dropFirst(2))
      if flags.contains(name) {
        options[name] = "true"
      } else {
        guard let value = iterator.next() else { Self.fail("--\(name) needs a value") }
        options[name] = value
      }
    }
  }

  mutating func string(_ name: String) -> String? {
    used.insert(name)
    return options[name]
  }

  mutating func string(_ name: String, default value: String) -> String { string(name) ?? value }

  /// A count, accepting `10k`, `1M` and `10M` as well as digits and `_` or `,` separators.
  mutating func int(_ name: String, default value: Int) -> Int {
    guard let text = string(name) else { return value }
    guard let parsed = Self.count(text) else { Self.fail("--\(name): not a count: \(text)") }
    return parsed
  }

  /// A comma-separated list of counts (`10k,1M`).
  mutating func ints(_ name: String, default value: [Int]) -> [Int] {
    guard let text = string(name) else { return value }
    return text.split(separator: ",").map { part in
      guard let parsed = Self.count(String(part)) else { Self.fail("--\(name): not a count: \(part)") }
      return parsed
    }
  }

  mutating func flag(_ name: String) -> Bool { string(name) == "true" }

  /// Ends the run if an option was given that nothing read.
  func checkAllUsed() {
    for name in options.keys.sorted() where !used.contains(name) { Self.fail("unknown option --\(name)") }
  }

  static func count(_ text: String) -> Int? {
    let digits = text.filter { $0 != "_" && $0 != "," }
    let multipliers: [Character: Int] = ["k": 1_000, "K": 1_000, "M": 1_000_000]
    if let last = digits.last, let multiplier = multipliers[last] {
      return Int(digits.dropLast()).map { $0 * multiplier }
    }
    return Int(digits)
  }

  static func fail(_ message: String) -> Never {
    printError("HistoryFileBench: \(message)")
    exit(2)
  }
}
