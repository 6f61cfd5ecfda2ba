import Foundation
import ListSync
import Logging

extension ServeCommand {
  /// The storage the options name: journal files in `--data` (the default backend).
  func makeStorage(logger: Logger) throws -> any SyncStorage {
    do {
      try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    } catch {
      throw ServerFailure("cannot create the data folder '\(data)': \(error.localizedDescription)")
    }
    do {
      let storage = try SyncFileStorage(directory: data)
      logger.info("storage: journal files", metadata: ["data": "\(data)"])
      return storage
    } catch {
      throw ServerFailure("cannot open the data folder '\(data)': \(error)")
    }
  }
}
