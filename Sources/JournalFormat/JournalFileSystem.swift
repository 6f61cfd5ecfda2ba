/// How a file is opened by `JournalFileSystem.open(_:mode:)`.
public enum JournalFileMode: Sendable, Hashable {
  /// Read-only; the file must exist.
  case read
  /// Read-write; the file must exist.
  case readWrite
  /// Read-write; the file must not exist yet (`O_CREAT | O_EXCL`).
  case createNew
}

/// The file layer under the journal, so tests can inject faults and crashes.
///
/// `POSIXFileSystem` is the real implementation; `FaultInjectingFileSystem` (in the
/// `JournalFormatTesting` library) is an in-memory one that fails the Nth operation and simulates
/// crashes that drop or tear unsynced writes.
///
/// ```swift
/// let fs: any JournalFileSystem = POSIXFileSystem()
/// let file = try fs.open("/tmp/x", mode: .createNew)
/// try file.write([1, 2, 3], at: 0)
/// try file.sync(dataOnly: true)
/// ```
public protocol JournalFileSystem: Sendable {
  /// Opens a file.
  func open(_ path: String, mode: JournalFileMode) throws(JournalError) -> any JournalFileHandle
  /// Atomically renames `from` to `to`, replacing `to`.
  func rename(_ from: String, to: String) throws(JournalError)
  /// Removes a file; missing files are not an error.
  func remove(_ path: String) throws(JournalError)
  /// Whether a file exists.
  func exists(_ path: String) -> Bool
  /// Makes creations and renames in the directory containing `path` durable.
  func syncDirectory(containing path: String) throws(JournalError)
}

/// An open file of a `JournalFileSystem`.
public protocol JournalFileHandle: AnyObject, Sendable {
  /// The path it was opened at (for error messages).
  var path: String { get }
  /// Current size in bytes.
  func size() throws(JournalError) -> Int64
  /// Reads up to `count` bytes at `offset` (fewer at end of file).
  func read(at offset: Int64, count: Int) throws(JournalError) -> [UInt8]
  /// Writes all of `bytes` at `offset`.
  func write(_ bytes: [UInt8], at offset: Int64) throws(JournalError)
  /// Truncates (or extends with zeros) to `size`.
  func truncate(to size: Int64) throws(JournalError)
  /// `fdatasync` when `dataOnly`, `fsync` otherwise.
  func sync(dataOnly: Bool) throws(JournalError)
  /// Takes the exclusive advisory writer lock without blocking; false if someone else holds it.
  func tryLockExclusive() throws(JournalError) -> Bool
  /// Maps (or reads) the first `length` bytes read-only.
  func mapReadOnly(length: Int) throws(JournalError) -> JournalMappedBytes
  /// Closes the file (releasing its lock). Idempotent.
  func close()
}

extension JournalFileHandle {
  /// Default: reads the bytes into memory.
  public func mapReadOnly(length: Int) throws(JournalError) -> JournalMappedBytes {
    JournalMappedBytes(bytes: try read(at: 0, count: length))
  }
}
