import ListLocking

/// Maps journal sequence numbers to versions: which versions are durable.
///
/// The writer reports the highest durable *sequence* (possibly before the sink has even learnt
/// the sequence of the record it just appended — `.strict` reports inside `append`), so both
/// orders are handled: a commit registered at or below the durable sequence is durable at once.
@usableFromInline
final class _DurabilityTracker: Sendable {
  @usableFromInline
  struct State {
    /// (sequence, version) of commit records not yet durable, oldest first.
    @usableFromInline var pending: [(sequence: UInt64, version: Int)] = []
    @usableFromInline var pendingStart = 0
    @usableFromInline var durableSequence: UInt64 = 0
    @usableFromInline var durableVersion = 0

    @inlinable
    init(pending: [(sequence: UInt64, version: Int)] = [], pendingStart: Int = 0, durableSequence: UInt64 = 0, durableVersion: Int = 0) {
      self.pending = pending
      self.pendingStart = pendingStart
      self.durableSequence = durableSequence
      self.durableVersion = durableVersion
    }
  }

  @usableFromInline let state = ListMutex(State())
  @usableFromInline let onDurable: (@Sendable (Version) -> Void)?

  @inlinable
  init(onDurable: (@Sendable (Version) -> Void)? = nil) {
    self.onDurable = onDurable
  }

  @inlinable
  var durableVersion: Version { Version(state.withLock { $0.durableVersion }) }

  @inlinable
  func start(durableVersion: Version, durableSequence: UInt64) {
    state.withLock {
      $0.durableVersion = max($0.durableVersion, durableVersion.rawValue)
      $0.durableSequence = max($0.durableSequence, durableSequence)
    }
  }

  /// A commit record for `version` was appended as `sequence`.
  @inlinable
  func register(sequence: UInt64, version: Int) {
    let advanced = state.withLock { state -> Int? in
      if sequence <= state.durableSequence {
        guard version > state.durableVersion else { return nil }
        state.durableVersion = version
        return version
      }
      state.pending.append((sequence, version))
      return nil
    }
    if let advanced { onDurable?(Version(advanced)) }
  }

  /// The writer made every record up to `sequence` durable.
  @inlinable
  func advance(toSequence sequence: UInt64) {
    let advanced = state.withLock { state -> Int? in
      guard sequence > state.durableSequence else { return nil }
      state.durableSequence = sequence
      var newest: Int?
      while state.pendingStart < state.pending.count, state.pending[state.pendingStart].sequence <= sequence {
        newest = state.pending[state.pendingStart].version
        state.pendingStart += 1
      }
      if state.pendingStart > 1024, state.pendingStart * 2 > state.pending.count {
        state.pending.removeFirst(state.pendingStart)
        state.pendingStart = 0
      }
      guard let newest, newest > state.durableVersion else { return nil }
      state.durableVersion = newest
      return newest
    }
    if let advanced { onDurable?(Version(advanced)) }
  }
}
