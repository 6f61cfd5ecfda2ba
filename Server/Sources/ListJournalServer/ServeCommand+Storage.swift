import Foundation
import ListSync
import ListSyncPostgres
import Logging
import ServiceLifecycle

extension ServeCommand {
  /// The storage the options name, and the services it needs running: PostgreSQL with
  /// `--postgres` (its connection pool and listener), else journal files in `--data`.
  func makeStorage(logger: Logger) throws -> (any SyncStorage, [any Service]) {
    if let postgres {
      do {
        let storage = try PostgresSyncStorage(url: postgres, logger: logger)
        logger.info("storage: PostgreSQL", metadata: ["instance": "\(storage.instanceID)"])
        return (storage, [StorageService(storage: storage)])
      } catch {
        throw ServerFailure("--postgres: \(error)")
      }
    }
    do {
      try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    } catch {
      throw ServerFailure("cannot create the data folder '\(data)': \(error.localizedDescription)")
    }
    do {
      let storage = try SyncFileStorage(directory: data)
      logger.info("storage: journal files", metadata: ["data": "\(data)"])
      return (storage, [])
    } catch {
      throw ServerFailure("cannot open the data folder '\(data)': \(error)")
    }
  }
}

/// Runs the PostgreSQL storage in the server's `ServiceGroup`. The hub closes the storage while
/// it drains, before the storage's turn in the shutdown order; a service that ends before its
/// turn fails the group, so this one waits for its turn.
struct StorageService: Service {
  let storage: PostgresSyncStorage

  func run() async throws {
    try await storage.run()
    try? await gracefulShutdown()
  }
}
