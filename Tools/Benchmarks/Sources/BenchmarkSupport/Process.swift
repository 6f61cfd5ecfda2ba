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

/// The peak resident set of this process in MiB (`getrusage`'s `ru_maxrss`). After an `exec`
/// the kernel carries the peak of the process image it replaced into this figure, so a child
/// measured this way must be started by a parent that stays small (see ``runChild(_:_:)``).
public func peakResidentMegabytes() -> Double {
  var usage = rusage()
  #if os(Linux)
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Double(usage.ru_maxrss) / 1024
  #else
  getrusage(RUSAGE_SELF, &usage)
  return Double(usage.ru_maxrss) / 1_048_576
  #endif
}

/// Hands the memory the allocator holds free back to the system (glibc's `malloc_trim`, looked
/// up at run time; nothing elsewhere), so that a resident-set figure counts live memory.
public func returnFreedMemory() {
  #if os(Linux)
  typealias Trim = @convention(c) (Int) -> Int32
  if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
  #endif
}

/// Writes `line` and a line feed to standard error, unbuffered: progress for whoever watches a
/// run, never part of its results.
public func printError(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// Writes what `print` buffered to standard output.
public func flushStandardOutput() {
  fflush(nil)
}

/// The 1, 5 and 15-minute load averages, as `uptime` prints them.
public func loadAverage() -> String {
  var loads = [Double](repeating: 0, count: 3)
  guard getloadavg(&loads, 3) == 3 else { return "unknown" }
  return loads.map { fixed($0, decimals: 2) }.joined(separator: " ")
}

/// The current UTC time as `YYYY-MM-DDTHH:MMZ`.
public func utcTimestamp() -> String {
  var now = time(nil)
  var parts = tm()
  gmtime_r(&now, &parts)
  func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
  let date = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
  return date + "T\(two(parts.tm_hour)):\(two(parts.tm_min))Z"
}

/// Processors available to this process.
func processorCount() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
