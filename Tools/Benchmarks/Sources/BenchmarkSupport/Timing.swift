#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock every runner times with: monotonic, so that a wall-clock adjustment never shows up
/// as a duration.
public let benchmarkClock = ContinuousClock()

/// `duration` in seconds.
public func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// The seconds `body` takes on the monotonic clock.
public func time(_ body: () throws -> Void) rethrows -> Double {
  let start = benchmarkClock.now
  try body()
  return seconds(benchmarkClock.now - start)
}

/// `body`'s result and the seconds it takes (the result is destroyed by the caller, untimed).
public func measure<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
  let start = benchmarkClock.now
  let result = try body()
  return (result, seconds(benchmarkClock.now - start))
}

/// The timings of repeated runs of one piece of work.
public struct Samples: Sendable {
  /// Each run's time in the order they ran: seconds, unless the runner records another unit.
  public private(set) var times: [Double]

  public init(_ times: [Double] = []) { self.times = times }

  public mutating func append(_ time: Double) { times.append(time) }

  public var count: Int { times.count }
  /// The least disturbed run (`infinity` when there is none): on a shared machine, the best
  /// estimate of the work's own cost.
  public var min: Double { times.min() ?? .infinity }
  /// The middle run (the upper one of an even count): what a typical run costs.
  public var median: Double {
    guard !times.isEmpty else { return .infinity }
    return times.sorted()[times.count / 2]
  }
  /// The sample that a `fraction` of the runs do not exceed (nearest rank: 0.9 is the p90).
  public func percentile(_ fraction: Double) -> Double {
    guard !times.isEmpty else { return .infinity }
    let sorted = times.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[Swift.min(sorted.count, Swift.max(1, rank)) - 1]
  }
  public var max: Double { times.max() ?? .infinity }
  public var total: Double { times.reduce(0, +) }
}

/// Runs `body` `warmUp` times untimed (cold caches, first-touch page faults, lazily built
/// tables), then `repeats` times timed. What `body` returns is destroyed after its clock stops,
/// so freeing a built value is not counted as building it.
public func sample<T>(warmUp: Int = 1, repeats: Int, _ body: () throws -> T) rethrows -> Samples {
  for _ in 0..<warmUp { _ = try body() }
  var samples = Samples()
  for _ in 0..<repeats { samples.append(try measure(body).seconds) }
  return samples
}

/// CPU time of the calling thread: unlike the wall clock, it does not count time the scheduler
/// gave to other processes (the development machine is shared).
public func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CPU time of the whole process, every thread, user and system: unlike the wall clock, it counts
/// little of what other processes on a shared machine take (a journal's open decodes on a second
/// thread, which the calling thread's CPU time would miss).
public func processCPUSeconds() -> Double {
  var usage = rusage()
  #if os(Linux)
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #else
  getrusage(RUSAGE_SELF, &usage)
  #endif
  return cpuSeconds(usage)
}

/// The user and system CPU time in `usage`.
public func cpuSeconds(_ usage: rusage) -> Double {
  Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
    + Double(usage.ru_stime.tv_usec) / 1e6
}
