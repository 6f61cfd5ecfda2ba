/// How a subcommand opens a journal.
///
/// ```swift
/// JournalSessionMode.readWrite(durability: .grouped, createIfMissing: true)
/// ```
enum JournalSessionMode: Sendable, Equatable {
  case readOnly
  case readWrite(durability: CLIDurability, createIfMissing: Bool)
  /// Replayed into memory and edited there; the file is never written (`exec --dry-run`).
  case inMemory
  /// Read-only, past damage: every version that can be rebuilt (`--salvage`).
  case salvage
}
