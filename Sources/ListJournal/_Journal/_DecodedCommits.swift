import ListHistory

/// The commits a time travel decoded on its way to the target, by version, until the path to
/// the target is walked (see `JournalTimeTravel.plan(for:)`).
///
/// A journal's commits carry consecutive versions, so they are kept in an array indexed from
/// the first one's version: appending moves a commit in, where a `[Int: HistoryCommit]` hashed
/// every version and rehashed (copying every commit) each time it grew — a few percent of a
/// travel that decodes a hundred thousand commits. A commit out of that order (only in a
/// damaged or foreign file) goes to a dictionary beside it, so any sequence of versions gives
/// what the dictionary alone gave: the commit decoded last for each version.
@usableFromInline
struct _DecodedCommits<Section: ListElement, Item: ListElement> {
  @usableFromInline typealias Commit = HistoryCommit<Section, Item>

  /// The version of `_slots[0]`.
  @usableFromInline var _first = 0
  /// The commits of versions `_first ..< _first + _slots.count`; nil once taken.
  @usableFromInline var _slots: [Commit?] = []
  /// Commits whose version did not continue `_slots`.
  @usableFromInline var _others: [Int: Commit] = [:]

  @inlinable
  init(_first: Int = 0, _slots: [Commit?] = [], _others: [Int: Commit] = [:]) {
    self._first = _first
    self._slots = _slots
    self._others = _others
  }

  /// Keeps `commit`, replacing one kept with the same version.
  @inlinable
  mutating func insert(_ commit: consuming Commit) {
    let version = commit.version.rawValue
    if _slots.isEmpty && _others.isEmpty { _first = version }
    let index = version - _first
    if index == _slots.count {
      _slots.append(commit)
    } else if index >= 0 && index < _slots.count {
      _slots[index] = commit
      // One in `_others` is older than this one, and this one is found first anyway.
    } else {
      _others[version] = commit
    }
  }

  /// Moves out the commit of `version`, if one is kept.
  @inlinable
  mutating func take(_ version: Int) -> Commit? {
    let index = version - _first
    if index >= 0 && index < _slots.count, let commit = _slots[index].take() { return commit }
    return _others.removeValue(forKey: version)
  }
}
