import Foundation
import ListHistory
import ListReplica
import ListSync
import Synchronization
import SyncWorkload

#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock: cheap enough to stamp every frame.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// One thin client of the load generator: a WebSocket that sends pre-encoded pushes and records,
/// for every commit another client pushed, when it arrived — without merging anything.
///
/// The sender writes `sentAt` and the receiver the arrival and ack arrays; each array has one
/// writer, and the benchmark reads them once both tasks have ended.
final class LoadClient: @unchecked Sendable {
  let index: Int
  let channel: any SyncChannel
  let pushes: [[UInt8]]
  /// For each of this client's commits (sequence − 1), the push that carries it.
  let pushOfSequence: [Int]
  /// Where each client's commits start in the global commit numbering (by client index).
  let offsets: [Int]
  /// Commits this client should receive: everyone else's.
  let expected: Int
  let keepsCommits: Bool

  /// When each push was handed to the socket, and when its ack arrived (ns, monotonic).
  var sentAt: [UInt64]
  var ackedAt: [UInt64]
  /// When each commit of the whole run arrived here (0: not yet), by global commit number.
  var arrivedAt: [UInt64]
  /// What arrived, in order, for the clients that fold it afterwards.
  var received: [[ReplicaCommit<String, SyncRow>]] = []
  var duplicates = 0
  var unknown = 0
  var stored: UInt64 = 0
  var storedDuplicates: UInt64 = 0
  var failure: String?

  let acks = Atomic<Int>(0)
  let arrivals = Atomic<Int>(0)
  /// Set once the run is over and the benchmark closes the connection: how the receive loop
  /// ends then (nil, or a cancellation) is not a failure.
  let closing = Atomic<Bool>(false)
  let credits: Credits

  init(
    index: Int, channel: any SyncChannel, pushes: [[UInt8]], pushOfSequence: [Int], offsets: [Int], total: Int,
    window: Int, keepsCommits: Bool
  ) {
    self.index = index
    self.channel = channel
    self.pushes = pushes
    self.pushOfSequence = pushOfSequence
    self.offsets = offsets
    self.expected = total - pushOfSequence.count
    self.keepsCommits = keepsCommits
    sentAt = Array(repeating: 0, count: pushes.count)
    ackedAt = Array(repeating: 0, count: pushes.count)
    arrivedAt = Array(repeating: 0, count: total)
    credits = Credits(window)
  }

  var isDone: Bool { acks.load(ordering: .relaxed) == pushes.count && arrivals.load(ordering: .relaxed) >= expected }

  /// Sends every push: at most `window` unacknowledged, or one every `interval` seconds.
  func send(interval: Double?) async throws {
    var next = monotonicNanoseconds()
    for position in pushes.indices {
      if let interval {
        next += UInt64(interval * 1e9)
        let now = monotonicNanoseconds()
        if next > now { try await Task.sleep(for: .nanoseconds(Int64(next - now))) }
      } else {
        await credits.acquire()
      }
      sentAt[position] = monotonicNanoseconds()
      try await channel.send(pushes[position])
    }
  }

  /// Reads frames until the connection ends: acks free the window, commits are stamped.
  func receive(ids: FrameIDs) async {
    do {
      while let frame = try await channel.receive() {
        let now = monotonicNanoseconds()
        switch frame.first {
        case 0x05:
          let entry = try ids.entry(for: frame)
          for id in entry.ids {
            let sender = Int(id.replica.rawValue) - 1
            guard sender >= 0, sender < offsets.count - 1, id.sequence >= 1,
              Int(id.sequence) <= offsets[sender + 1] - offsets[sender]
            else {
              unknown += 1
              continue
            }
            let slot = offsets[sender] + Int(id.sequence) - 1
            if arrivedAt[slot] != 0 { duplicates += 1 } else { arrivedAt[slot] = now }
          }
          if keepsCommits { received.append(entry.commits) }
          arrivals.add(entry.ids.count, ordering: .relaxed)
        case 0x04:
          guard case .ack(let request, let stored, let duplicates) = try SyncMessage(decoding: frame),
            request >= 1, Int(request) <= pushes.count
          else { throw BenchFailure("client \(index): an ack for a request it did not send") }
          ackedAt[Int(request) - 1] = now
          self.stored += stored
          storedDuplicates += duplicates
          acks.add(1, ordering: .relaxed)
          credits.release()
        case 0x06:
          throw BenchFailure("client \(index): the server answered \(try SyncMessage(decoding: frame))")
        default:
          throw BenchFailure("client \(index): unexpected frame type \(frame.first.map(String.init) ?? "none")")
        }
      }
    } catch {
      if !closing.load(ordering: .acquiring) { failure = "\(error)" }
    }
    credits.cancel()
  }
}

/// A counting semaphore for the push window: the receiver releases a slot per ack.
final class Credits: Sendable {
  private struct State {
    var available: Int
    var waiter: CheckedContinuation<Void, Never>?
    var cancelled = false
  }
  private let state: Mutex<State>

  init(_ count: Int) { state = Mutex(State(available: count)) }

  func acquire() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.available > 0 || state.cancelled {
          state.available -= 1
          return true
        }
        state.waiter = continuation
        return false
      }
      if ready { continuation.resume() }
    }
  }

  func release() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      state.available += 1
      return nil
    }
    waiter?.resume()
  }

  /// The connection ended: a waiting sender goes on (and fails on the closed channel).
  func cancel() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.cancelled = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
