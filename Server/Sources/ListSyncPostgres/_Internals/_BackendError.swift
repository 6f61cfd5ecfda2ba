import ListSync
import PostgresNIO

/// A database error as ``SyncStorageError/backend(_:)`` says it: PostgreSQL's own message and
/// SQLSTATE when the server sent one, else what postgres-nio knows (connection closed, pool
/// closed, …). `PSQLError.description` hides the message on purpose, so it is read field by field.
enum _BackendError {
  static func storageError(_ error: any Error, doing action: String) -> SyncStorageError {
    if let error = error as? SyncStorageError { return error }
    if let error = error as? PostgresTransactionError {
      // A refusal thrown inside the transaction (conflict, unknown list) is the answer itself.
      if let inner = error.closureError as? SyncStorageError { return inner }
      let inner = error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError
      if let inner { return storageError(inner, doing: action) }
      return .backend("\(action): transaction failed")
    }
    if let error = error as? PSQLError { return .backend("\(action): \(describe(error))") }
    if error is CancellationError { return .backend("\(action): cancelled") }
    return .backend("\(action): \(String(describing: error))")
  }

  static func describe(_ error: PSQLError) -> String {
    if let info = error.serverInfo, let message = info[.message] {
      let state = info[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
      return message + state
    }
    if let underlying = error.underlying { return "\(error.code): \(underlying)" }
    return "\(error.code)"
  }
}
