/// How a subcommand opens a journal.
///
/// ```swift
/// JournalSessionMode.readWrite(durability: .grouped, createIfMissing: true)
/// ```
enum JournalSessionMode: Sendable, Equatable {
  case readOnly
  case readWrite(durability: CLIDurability, createIfMissing: Bool)
}
