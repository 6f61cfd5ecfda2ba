import Foundation
import ListHistory
import ListReplica
import ListSync
import Synchronization
import SyncWorkload

/// The commit identities in a `commits` frame, decoded once per distinct frame: the server
/// encodes a fan-out frame once and sends the same bytes to many sessions, so the load
/// generator decodes each once, not once per receiver. Counts what decoding cost.
final class FrameIDs: Sendable {
  final class Entry: Sendable {
    let ids: [ReplicaCommitID]
    let commits: [ReplicaCommit<String, SyncRow>]
    init(ids: [ReplicaCommitID], commits: [ReplicaCommit<String, SyncRow>]) {
      self.ids = ids
      self.commits = commits
    }
  }

  private struct State {
    var entries: [[UInt8]: Entry] = [:]
    var decodedFrames = 0
    var decodedCommits = 0
    var decodeNanoseconds: UInt64 = 0
    var lookups = 0
  }
  private let state = Mutex(State())
  let codec: HistoryCodec<String, SyncRow>

  init(codec: HistoryCodec<String, SyncRow>) { self.codec = codec }

  func entry(for frame: [UInt8]) throws -> Entry {
    if let known = state.withLock({ state -> Entry? in
      state.lookups += 1
      return state.entries[frame]
    }) {
      return known
    }
    let start = monotonicNanoseconds()
    guard case .commits(let batch) = try SyncMessage(decoding: frame) else { throw BenchFailure("not a commits frame") }
    let commits = try batch.commits(codec: codec).commits
    let entry = Entry(ids: commits.map(\.id), commits: commits)
    let spent = monotonicNanoseconds() - start
    state.withLock { state in
      if state.entries[frame] == nil {
        state.entries[frame] = entry
        state.decodedFrames += 1
        state.decodedCommits += commits.count
      }
      state.decodeNanoseconds += spent
    }
    return entry
  }

  /// Distinct frames decoded, their commits, the CPU seconds that took, and frames looked up.
  var statistics: (frames: Int, commits: Int, seconds: Double, lookups: Int) {
    state.withLock { ($0.decodedFrames, $0.decodedCommits, Double($0.decodeNanoseconds) / 1e9, $0.lookups) }
  }
}
