import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// The list's genesis, or `nil` if no list of that name exists.
  ///
  /// - Complexity: one primary-key lookup.
  public func genesis(of list: String) async throws(SyncStorageError) -> SyncListGenesis? {
    try await ready()
    let doing = "reading the genesis of '\(list)'"
    for row in try await rows("SELECT list_id, base FROM lists WHERE name = \(list)", doing: doing) {
      let (listID, base) = try decode(row, as: (Int64, ByteBuffer).self, doing: doing)
      return SyncListGenesis(listID: UInt64(bitPattern: listID), base: Array(base.readableBytesView))
    }
    return nil
  }

  /// Creates the list unless it exists; the genesis it has (the first creator's when two race,
  /// on any instance: the loser's insert waits for the winner's and then does nothing).
  ///
  /// - Complexity: one insert and one lookup.
  public func create(_ list: String, genesis: SyncListGenesis) async throws(SyncStorageError) -> SyncListGenesis {
    try await ready()
    _ = try await rows(
      """
      INSERT INTO lists (name, list_id, base, last_position)
      VALUES (\(list), \(Int64(bitPattern: genesis.listID)), \(ByteBuffer(bytes: genesis.base)), 0)
      ON CONFLICT (name) DO NOTHING
      """, doing: "creating '\(list)'")
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
    let doing = "reading the last position of '\(list)'"
    for row in try await rows("SELECT last_position FROM lists WHERE name = \(list)", doing: doing) {
      return UInt64(bitPattern: try decode(row, as: Int64.self, doing: doing))
    }
    throw .unknownList(list)
  }

  /// The names of all lists, in ascending order.
  ///
  /// - Complexity: O(lists).
  public func lists() async throws(SyncStorageError) -> [String] {
    try await ready()
    let doing = "listing the lists"
    var names: [String] = []
    for row in try await rows("SELECT name FROM lists ORDER BY name", doing: doing) {
      names.append(try decode(row, as: String.self, doing: doing))
    }
    return names
  }

  func decode<T: PostgresDecodable>(_ row: PostgresRow, as type: T.Type, doing: String) throws(SyncStorageError) -> T {
    do { return try row.decode(T.self) } catch { throw _BackendError.storageError(error, doing: doing) }
  }

  func decode<each T: PostgresDecodable>(_ row: PostgresRow, as type: (repeat each T).Type, doing: String)
    throws(SyncStorageError) -> (repeat each T)
  {
    do { return try row.decode(type) } catch { throw _BackendError.storageError(error, doing: doing) }
  }
}
