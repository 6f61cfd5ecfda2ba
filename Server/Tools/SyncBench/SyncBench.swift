import ArgumentParser
import Foundation
import ListHistory
import ListReplica
import ListSync
import ListSyncWebSocketClient
import SyncWorkload

#if canImport(Glibc)
import Glibc
#endif

/// The sync server benchmark, against `listjournal-server` child processes on loopback.
///
/// The default mode is a load generator: every client's commits are made offline before the
/// clock starts and pre-encoded as push frames; thin WebSocket clients pipeline them, count acks
/// and record when each commit reaches each other client without merging, so the machine's CPU
/// goes to the server. `--mode clients` runs real `SyncClient`s that merge everything instead.
@main
struct SyncBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "SyncBench", abstract: "The sync server benchmark.")

  enum Mode: String, ExpressibleByArgument, CaseIterable {
    /// Thin clients sending pre-made pushes (the server's throughput and latency).
    case load
    /// `SyncClient`s that make, push and merge commits (the whole system).
    case clients
    /// The server's RSS over writers, readers and sessions that never read (`Tools/rss-sync`).
    case memory
  }

  @Option(help: "load (pre-made pushes from thin clients), clients (merging SyncClients) or memory (RSS with non-readers).")
  var mode: Mode = .load

  @Option(help: "The listjournal-server executable.")
  var server: String

  @Option(help: "Clients on the list.")
  var clients = 100

  @Option(help: "Operations (commits) each client makes.")
  var operations = 1000

  @Option(help: "Pushes per second per client (0: as fast as the window allows; clients mode: commits per second).")
  var rate = 0.0

  @Option(help: "load mode: pushes each client keeps in flight (unacknowledged) at most.")
  var window = 1

  @Option(help: "load mode: commits per push frame.")
  var commitsPerPush = 1

  @Option(help: "load mode: server instances (more than one needs PostgreSQL); clients alternate between them.")
  var instances = 1

  @Option(help: "load mode: clients that fold everything they received into a replica and compare it with the server's state.")
  var foldSamples = 3

  @Option(parsing: .upToNextOption, help: "file, or postgres [URL] (default: $LISTJOURNAL_POSTGRES_URL).")
  var backend: [String] = ["file"]

  @Option(help: "Rows in the list's base state.")
  var baseItems = 100

  @Option(help: "The server's --max-queued-frames (frames queued for one client before it is dropped).")
  var maxQueuedFrames = 1_000_000

  @Option(help: "memory mode: sessions that push (the rest of --clients read, or never read).")
  var writers = 10

  @Option(help: "memory mode: sessions that upgrade, say hello and never read.")
  var nonReaders = 10

  @Option(help: "memory mode: bytes of random text (6 bits a byte) in each commit's one item; 64 KiB is a push of ~48 KiB.")
  var commitBytes = 64 << 10

  @Option(help: "memory mode: seconds the writers push for (at --rate pushes/s each, 2 by default).")
  var duration = 60.0

  @Option(help: "memory mode: seconds sampled after the last push.")
  var settle = 10.0

  @Option(help: "memory mode: the server's --max-queued-bytes (its default when not given).")
  var maxQueuedBytes: Int?

  @Option(help: "memory mode: sessions that join the list at once after the pushes (empty vector, so its whole catch-up) and read it all.")
  var joiners = 0

  func validate() throws {
    guard clients >= 2 else { throw ValidationError("--clients must be at least 2") }
    guard operations >= 1 else { throw ValidationError("--operations must be at least 1") }
    guard window >= 1 else { throw ValidationError("--window must be at least 1") }
    guard commitsPerPush >= 1 else { throw ValidationError("--commits-per-push must be at least 1") }
    guard instances >= 1 else { throw ValidationError("--instances must be at least 1") }
    if instances > 1, backend.first != "postgres" {
      throw ValidationError("--instances \(instances) needs --backend postgres (instances share the database)")
    }
    if instances > 1, mode == .clients { throw ValidationError("--instances is a load-mode option") }
  }

  func run() async throws {
    switch mode {
    case .load: try await runLoad()
    case .clients: try await runClients()
    case .memory: try await runMemory()
    }
  }

  /// The storage arguments of `listjournal-server serve` for `--backend`, and a description.
  func storageArguments(data directory: URL) throws -> (arguments: [String], description: String) {
    switch backend.first {
    case "file", nil:
      return (["--data", directory.appendingPathComponent("data").path], "file")
    case "postgres":
      guard backend.count <= 2 else { throw ValidationError("--backend postgres takes one database URL") }
      guard let url = backend.count == 2 ? backend[1] : ProcessInfo.processInfo.environment["LISTJOURNAL_POSTGRES_URL"] else {
        throw ValidationError("--backend postgres takes the database URL (or set LISTJOURNAL_POSTGRES_URL)")
      }
      return (["--postgres", url], "PostgreSQL")
    case let other?: throw ValidationError("--backend \(other): give file or postgres URL")
    }
  }
}

/// User + system CPU seconds of this process.
func processCPUSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
