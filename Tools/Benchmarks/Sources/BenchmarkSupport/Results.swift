#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A runner's report. Each line is printed and, when the environment variable
/// `BENCHMARK_RESULTS` names a file (the scripts name one in Tools/Benchmarks/Results/), saved
/// there too — so a run by hand never overwrites the saved run.
public enum Results {
  /// The results file's descriptor, or -1.
  private static let file = Mutex<Int32>(-1)

  /// Starts the report with a header line: the runner, its build configuration, the time, the
  /// machine's load, and the `settings` (arguments, environment) that shaped this run.
  public static func begin(_ runner: String, settings: [String] = []) {
    if let path = getenv("BENCHMARK_RESULTS").map({ String(cString: $0) }), !path.isEmpty {
      let opened = creat(path, 0o644)
      guard opened >= 0 else { fatalError("cannot write \(path)") }
      file.withLock { $0 = opened }
    }
    write(header(runner, settings))
  }

  /// Prints `line` and saves it (unbuffered: a run cut short keeps what it measured).
  public static func write(_ line: String = "") {
    print(line)
    file.withLock { file in
      if file >= 0 { writeAll(file, line + "\n") }
    }
  }

  private static func header(_ runner: String, _ settings: [String]) -> String {
    var header = "# \(runner), \(buildConfiguration) build, \(utcTimestamp()), load average \(loadAverage()), "
      + "\(processorCount()) cores"
    if !settings.isEmpty { header += "; " + settings.joined(separator: " ") }
    return header
  }
}

/// The settings among `names` that the environment sets, as `NAME=value`, for a header.
public func environmentSettings(_ names: [String]) -> [String] {
  names.compactMap { name in getenv(name).map { "\(name)=\(String(cString: $0))" } }
}

/// Writes all of `text` to `descriptor` (a write may take only part of it).
private func writeAll(_ descriptor: Int32, _ text: String) {
  var text = text
  text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      guard written > 0 else { return }
      offset += written
    }
  }
}
