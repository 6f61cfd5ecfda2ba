import JournalFormat

/// A file handle that forwards every call to `file`, running `beforeWrite` before each write and
/// `beforeSync` before each sync: the shared part of the tests' gated file systems, which hold or
/// slow those calls (a `JournalFormatTests` gate holding syncs or the next write, the
/// `ListJournalTests` gate shutting writes while background batches are in flight).
///
/// ```swift
/// func open(_ path: String, mode: JournalFileMode) throws(JournalError) -> any JournalFileHandle {
///     HookedFile(try base.open(path, mode: mode), beforeWrite: { gate.waitIfShut() })
/// }
/// ```
public final class HookedFile: JournalFileHandle {
  let file: any JournalFileHandle
  let beforeWrite: @Sendable () -> Void
  let beforeSync: @Sendable () -> Void

  public init(
    _ file: any JournalFileHandle, beforeWrite: @escaping @Sendable () -> Void = {},
    beforeSync: @escaping @Sendable () -> Void = {}
  ) {
    self.file = file
    self.beforeWrite = beforeWrite
    self.beforeSync = beforeSync
  }

  public var path: String { file.path }
  public func size() throws(JournalError) -> Int64 { try file.size() }
  public func read(at offset: Int64, count: Int) throws(JournalError) -> [UInt8] { try file.read(at: offset, count: count) }
  public func write(_ bytes: [UInt8], at offset: Int64) throws(JournalError) {
    beforeWrite()
    try file.write(bytes, at: offset)
  }
  public func truncate(to size: Int64) throws(JournalError) { try file.truncate(to: size) }
  public func sync(dataOnly: Bool) throws(JournalError) {
    beforeSync()
    try file.sync(dataOnly: dataOnly)
  }
  public func tryLockExclusive() throws(JournalError) -> Bool { try file.tryLockExclusive() }
  public func mapReadOnly(length: Int) throws(JournalError) -> JournalMappedBytes { try file.mapReadOnly(length: length) }
  public func close() { file.close() }
}
