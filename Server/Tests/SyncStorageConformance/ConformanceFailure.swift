import ListSync

/// A storage broke the `SyncStorage` contract: what was expected and what it did.
public struct ConformanceFailure: Error, CustomStringConvertible, Sendable {
  public var description: String

  public init(_ description: String) { self.description = description }
}

/// Throws ``ConformanceFailure`` with `message` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw ConformanceFailure(message()) }
}

/// The error `body` throws as a ``SyncStorageError``, or a failure naming `what` if it succeeds
/// or throws something else.
func storageError<T>(_ what: String, _ body: () async throws -> T) async throws -> SyncStorageError {
  do {
    let value = try await body()
    throw ConformanceFailure("\(what): expected an error, got \(value)")
  } catch let error as SyncStorageError {
    return error
  } catch let error as ConformanceFailure {
    throw error
  } catch {
    throw ConformanceFailure("\(what): expected a SyncStorageError, got \(error)")
  }
}
