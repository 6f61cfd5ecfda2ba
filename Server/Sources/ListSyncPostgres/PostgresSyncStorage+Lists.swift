import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// The list's genesis, or `nil` if no list of that name exists.
  ///
  /// - Complexity: one primary-key lookup.
  public func genesis(of list: String) async throws(SyncStorageError) -> SyncListGenesis? {
    try await ready()
    do {
      let rows = try await client.query("SELECT list_id, base FROM lists WHERE name = \(list)", logger: logger)
      for try await (listID, base) in rows.decode((Int64, ByteBuffer).self) {
        return SyncListGenesis(listID: UInt64(bitPattern: listID), base: Array(base.readableBytesView))
      }
      return nil
    } catch {
      throw _BackendError.storageError(error, doing: "reading the genesis of '\(list)'")
    }
  }

  /// Creates the list unless it exists; the genesis it has (the first creator's when two race,
  /// on any instance: the loser's insert waits for the winner's and then does nothing).
  ///
  /// - Complexity: one insert and one lookup.
  public func create(_ list: String, genesis: SyncListGenesis) async throws(SyncStorageError) -> SyncListGenesis {
    try await ready()
    do {
      _ = try await client.query(
        """
        INSERT INTO lists (name, list_id, base, last_position)
        VALUES (\(list), \(Int64(bitPattern: genesis.listID)), \(ByteBuffer(bytes: genesis.base)), 0)
        ON CONFLICT (name) DO NOTHING
        """, logger: logger
      ).collect()
    } catch {
      throw _BackendError.storageError(error, doing: "creating '\(list)'")
    }
    guard let held = try await self.genesis(of: list) else {
      throw .backend("creating '\(list)': the list is missing right after it was created")
    }
    return held
  }

  /// The list's last position (0 when it holds no commit).
  ///
  /// - Complexity: one primary-key lookup.
  public func lastPosition(of list: String) async throws(SyncStorageError) -> UInt64 {
    try await ready()
    do {
      let rows = try await client.query("SELECT last_position FROM lists WHERE name = \(list)", logger: logger)
      for try await position in rows.decode(Int64.self) { return UInt64(bitPattern: position) }
    } catch {
      throw _BackendError.storageError(error, doing: "reading the last position of '\(list)'")
    }
    throw .unknownList(list)
  }

  /// The names of all lists, in ascending order.
  ///
  /// - Complexity: O(lists).
  public func lists() async throws(SyncStorageError) -> [String] {
    try await ready()
    do {
      var names: [String] = []
      let rows = try await client.query("SELECT name FROM lists ORDER BY name", logger: logger)
      for try await name in rows.decode(String.self) { names.append(name) }
      return names
    } catch {
      throw _BackendError.storageError(error, doing: "listing the lists")
    }
  }
}
