#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a child process did: its exit, what it wrote to standard output, its wall time from
/// spawn to exit, and its peak resident set.
public struct ChildRun: Sendable {
  /// The exit code, or 128 + the signal that ended it.
  public var exitCode: Int32
  public var output: String
  /// Spawn to exit on the monotonic clock: process launch, the work, and the exit.
  public var seconds: Double
  /// The child's user and system CPU time, every thread.
  public var cpuSeconds: Double
  /// The child's `ru_maxrss` as `wait4` reports it, in MiB.
  public var peakResidentMegabytes: Double
}

/// Runs `executable` with `arguments` in a new process (standard error inherited, standard output
/// collected) and waits for it.
///
/// The child is started with `posix_spawn`, and its peak RSS includes that of the process image
/// it replaced: a parent that measures children this way must itself stay small.
public func runChild(_ executable: String, _ arguments: [String]) -> ChildRun {
  var pipeEnds: [Int32] = [0, 0]
  precondition(pipe(&pipeEnds) == 0, "pipe failed")
  #if canImport(Glibc)
  var actions = posix_spawn_file_actions_t()
  #else
  var actions: posix_spawn_file_actions_t? = nil
  #endif
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
  posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
  posix_spawn_file_actions_addclose(&actions, pipeEnds[1])

  let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  let start = benchmarkClock.now
  let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
  close(pipeEnds[1])
  precondition(spawned == 0, "cannot start \(executable): error \(spawned)")

  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = read(pipeEnds[0], &buffer, buffer.count)
    if count < 0, errno == EINTR { continue }
    if count <= 0 { break }
    bytes.append(contentsOf: buffer[..<count])
  }
  close(pipeEnds[0])
  var status: Int32 = 0
  var usage = rusage()
  while wait4(pid, &status, 0, &usage) < 0 {
    precondition(errno == EINTR, "wait4 failed: error \(errno)")
  }
  let seconds = BenchmarkSupport.seconds(benchmarkClock.now - start)
  // The wait status: the exit code in bits 8-15 when the low 7 bits (the signal) are 0.
  let signal = status & 0x7f
  let exitCode = signal == 0 ? (status >> 8) & 0xff : 128 + signal
  #if os(Linux)
  let peak = Double(usage.ru_maxrss) / 1024
  #else
  let peak = Double(usage.ru_maxrss) / 1_048_576
  #endif
  return ChildRun(
    exitCode: exitCode, output: String(decoding: bytes, as: UTF8.self), seconds: seconds,
    cpuSeconds: cpuSeconds(usage), peakResidentMegabytes: peak)
}

/// The path of this process's executable, for a runner that starts itself as a child.
public func currentExecutablePath() -> String {
  #if os(Linux)
  var buffer = [CChar](repeating: 0, count: 4_096)
  let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  if length > 0 {
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
  #endif
  return CommandLine.arguments[0]
}
