/// When a ``JournalStore`` reads the part of its history older than the head.
///
/// A journal closed cleanly has a read index (`<journal>.index`) that holds the head's state
/// and where the record stream stands. Opened `.whenNeeded`, the store starts from there: the
/// head is readable and commits go on in time that depends on the head's size, not on the
/// journal's age. The older history — what undo and redo past the head's indexed ancestors,
/// checkout of an older version, `events(from:to:)` and `children(of:)` need — is replayed
/// from the journal the first time one of them asks, once, and kept from then on. A version's
/// facts (`info(for:)`), the events of the versions the index holds, and `state(at:)` of any
/// version (from the journal's nearest checkpoint record) are answered without it.
///
/// ```swift
/// var configuration = JournalStore<String, Row>.Configuration()
/// configuration.historyLoading = .atOpen      // pay the replay at launch, undo at once
/// ```
public enum JournalHistoryLoading: Sendable, Hashable {
  /// The whole journal is replayed at open: open costs O(history), every later read is in
  /// memory.
  case atOpen
  /// The store opens from the read index when the index describes the journal exactly and
  /// was written by a store (otherwise it replays, as `.atOpen`); the older history is loaded
  /// when first needed (see the type's summary). The default.
  case whenNeeded
}
