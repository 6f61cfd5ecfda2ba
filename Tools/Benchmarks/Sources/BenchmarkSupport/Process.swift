#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The configuration this runner was compiled in (the scripts build the default ones).
public var buildConfiguration: String {
  #if DEBUG
  "debug"
  #else
  "release"
  #endif
}

/// The integer in environment variable `name`, or `defaultValue` when unset or not a number.
public func environment(_ name: String, _ defaultValue: Int) -> Int {
  guard let raw = getenv(name), let value = Int(String(cString: raw)) else { return defaultValue }
  return value
}

/// The resident set of this process in MiB (Linux: /proc/self/statm; elsewhere: the peak).
public func residentMegabytes() -> Double {
  #if os(Linux)
  if let file = fopen("/proc/self/statm", "r") {
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    if fgets(&buffer, 256, file) != nil {
      let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let fields = text.split(separator: " ")
      if fields.count > 1, let pages = Int(fields[1]) {
        return Double(pages * Int(sysconf(Int32(_SC_PAGESIZE)))) / 1_048_576
      }
    }
  }
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Double(usage.ru_maxrss) / 1024
  #else
  var usage = rusage()
  getrusage(RUSAGE_SELF, &usage)
  return Double(usage.ru_maxrss) / 1_048_576
  #endif
}

/// The 1, 5 and 15-minute load averages, as `uptime` prints them.
public func loadAverage() -> String {
  var loads = [Double](repeating: 0, count: 3)
  guard getloadavg(&loads, 3) == 3 else { return "unknown" }
  return loads.map { fixed($0, decimals: 2) }.joined(separator: " ")
}

/// The current UTC time as `YYYY-MM-DDTHH:MMZ`.
func utcTimestamp() -> String {
  var now = time(nil)
  var parts = tm()
  gmtime_r(&now, &parts)
  func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
  let date = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
  return date + "T\(two(parts.tm_hour)):\(two(parts.tm_min))Z"
}

/// Processors available to this process.
func processorCount() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
