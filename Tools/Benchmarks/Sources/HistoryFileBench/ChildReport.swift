import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The figures a measurement's process hands to the run that started it: one line on standard
/// output, `result key=value key=value …` (values without spaces).
struct ChildReport {
  private var fields: [(key: String, value: String)] = []

  subscript(key: String) -> Double? {
    fields.first { $0.key == key }.flatMap { Double($0.value) }
  }

  mutating func set(_ key: String, _ value: Double) { fields.append((key, "\(value)")) }
  mutating func set(_ key: String, _ value: Int) { fields.append((key, "\(value)")) }

  /// The report as its line.
  var line: String { (["result"] + fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }

  /// Prints the line (and flushes it: the process may be about to exit).
  func emit() {
    print(line)
    flushStandardOutput()
  }

  /// The report in a child's output, or nil when it printed none.
  init?(parsing output: String) {
    guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("result ") }) else { return nil }
    for field in line.split(separator: " ").dropFirst() {
      guard let equals = field.firstIndex(of: "=") else { continue }
      fields.append((String(field[..<equals]), String(field[field.index(after: equals)...])))
    }
  }

  init() {}

  /// A figure the run needs; a child that did not report it is a broken run.
  func required(_ key: String) -> Double {
    guard let value = self[key] else { Arguments.fail("a measurement did not report \(key)") }
    return value
  }
}
