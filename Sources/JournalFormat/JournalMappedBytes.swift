/// An immutable view of a journal's bytes: an `mmap` of the file or an in-memory copy.
///
/// ```swift
/// let mapped = try file.mapReadOnly(length: Int(try file.size()))
/// mapped.withBytes { print($0.count) }
/// ```
/// - Complexity: creation is O(1) for a mapping, O(n) for a copy.
public final class JournalMappedBytes: @unchecked Sendable {
  // @unchecked: the memory is never written after creation and is released only in deinit.
  private let base: UnsafeRawPointer?
  /// Number of bytes viewed.
  public let count: Int
  private let release: (@Sendable (UnsafeRawPointer?, Int) -> Void)?

  /// Wraps memory that `release` frees when the view dies.
  public init(base: UnsafeRawPointer?, count: Int, release: (@Sendable (UnsafeRawPointer?, Int) -> Void)?) {
    self.base = base
    self.count = count
    self.release = release
  }

  /// Copies `bytes` into owned memory.
  public convenience init(bytes: [UInt8]) {
    let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
    bytes.withUnsafeBytes { if let b = $0.baseAddress { memory.copyMemory(from: b, byteCount: bytes.count) } }
    self.init(base: UnsafeRawPointer(memory), count: bytes.count) { p, _ in UnsafeMutableRawPointer(mutating: p)?.deallocate() }
  }

  deinit { release?(base, count) }

  /// Calls `body` with the bytes.
  public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    try body(UnsafeRawBufferPointer(start: base, count: count))
  }
}
