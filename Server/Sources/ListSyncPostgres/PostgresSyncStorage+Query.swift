import ListSync
import PostgresNIO

extension PostgresSyncStorage {
  /// Runs one statement outside a transaction and collects its rows, within
  /// ``operationTimeout``; any failure becomes a ``SyncStorageError`` saying what was `doing`.
  func rows(_ query: PostgresQuery, doing: String) async throws(SyncStorageError) -> [PostgresRow] {
    try await _Deadline.run(operationTimeout, doing) { () throws(SyncStorageError) in
      do {
        return try await self.client.query(query, logger: self.logger).collect()
      } catch {
        throw _BackendError.storageError(error, doing: doing)
      }
    }
  }
}
