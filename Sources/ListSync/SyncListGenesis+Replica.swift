import ListHistory
import ListReplica

extension SyncListGenesis {
  /// The genesis of `replica`'s list: its identifier and its base encoded with `codec`, what a
  /// `hello` carries so that a server that does not host the list yet creates it.
  ///
  /// ```swift
  /// let genesis = try SyncListGenesis(of: phone, codec: codec)
  /// ```
  /// - Complexity: O(size of the base).
  public init<Section, Item>(of replica: ListReplica<Section, Item>, codec: HistoryCodec<Section, Item>) throws(HistoryCodecError) {
    self.init(listID: replica.listID, base: try ReplicaJournalLayout.encodeBase(replica.base, codec: codec))
  }

  /// The base state, decoded with `codec`.
  public func decodeBase<Section, Item>(codec: HistoryCodec<Section, Item>) throws(HistoryCodecError) -> ListSnapshot<Section, Item> {
    try ReplicaJournalLayout.decodeBase(base, codec: codec)
  }
}
