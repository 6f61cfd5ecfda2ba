import JournalFormat
import ListLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An in-memory `JournalFileSystem` for reliability tests: fails the Nth operation of a kind
/// (once or persistently) and simulates crashes that drop or tear everything not yet synced.
///
/// It models what a crash can do to a real file system: file data reaches "disk" only at
/// `sync`, and directory entries (creations, renames) only at `syncDirectory`. Useful to users'
/// own tests of code built on the journal, so it ships as a library product of its own
/// (`JournalFormatTesting`), apart from the library an app links.
///
/// ```swift
/// let fs = FaultInjectingFileSystem()
/// var options = JournalOptions()
/// options.fileSystem = fs
/// fs.inject(.sync, onCall: 3)                      // the 3rd sync fails with EIO, once
/// let writer = try JournalWriter.create(at: "/j", options: options)
/// fs.crash(.tearUnsynced(seed: 42))                // power loss; unsynced writes torn
/// let reader = try JournalReader.open(at: "/j", fileSystem: fs)
/// ```
public final class FaultInjectingFileSystem: JournalFileSystem, Sendable {
  /// Kinds of operations that can be failed.
  public enum Operation: Hashable, Sendable {
    case open, write, sync, rename, truncate, syncDirectory, remove
  }

  /// What a simulated crash does to data not yet synced.
  public enum CrashMode: Hashable, Sendable {
    /// Every file reverts to its last synced contents.
    case dropUnsynced
    /// A random prefix of the unsynced writes survives, the last one possibly cut short or
    /// followed by garbage (deterministic for a seed).
    case tearUnsynced(seed: UInt64)
  }

  struct Fault {
    var operation: Operation
    var onCall: Int
    var persistent: Bool
    var errno: Int32
  }

  final class Inode: @unchecked Sendable {
    // @unchecked: only touched under the file system's lock.
    var current: [UInt8] = []
    var durable: [UInt8] = []
    var unsynced: [Pending] = []
    var locked = false
  }

  enum Pending {
    case write(offset: Int, bytes: [UInt8])
    case truncate(size: Int)
  }

  struct State {
    var names: [String: Inode] = [:]
    var durableNames: [String: Inode] = [:]
    var counts: [Operation: Int] = [:]
    var faults: [Fault] = []
    var generation = 0
  }

  let state = ListMutex(State())

  public init() {}

  /// Makes the `onCall`-th call (1-based, counted from now) of `operation` fail with `errno`;
  /// with `persistent`, that call and every later one fail.
  ///
  /// - Complexity: O(1).
  public func inject(_ operation: Operation, onCall: Int, persistent: Bool = false, errno: Int32 = EIO) {
    state.withLock { s in
      s.faults.append(Fault(operation: operation, onCall: (s.counts[operation] ?? 0) + onCall, persistent: persistent, errno: errno))
    }
  }

  /// Removes all injected faults.
  public func clearFaults() { state.withLock { $0.faults.removeAll() } }

  /// How many times `operation` was called.
  public func count(of operation: Operation) -> Int { state.withLock { $0.counts[operation] ?? 0 } }

  /// Simulates a crash: open handles die, locks are released, unsynced data and directory
  /// entries are dropped or torn per `mode`.
  ///
  /// - Complexity: O(total file bytes).
  public func crash(_ mode: CrashMode) {
    state.withLock { s in
      s.generation += 1
      s.names = s.durableNames
      var rng = _SplitMix64(seed: { if case .tearUnsynced(let seed) = mode { return seed }; return 0 }())
      var seen = Set<ObjectIdentifier>()
      for inode in s.names.values where seen.insert(ObjectIdentifier(inode)).inserted {
        var contents = inode.durable
        if case .tearUnsynced = mode, !inode.unsynced.isEmpty {
          let survivors = Int(rng.next() % UInt64(inode.unsynced.count + 1))
          for (index, op) in inode.unsynced.prefix(survivors).enumerated() {
            switch op {
            case .truncate(let size): Self.resize(&contents, to: size)
            case .write(let offset, var bytes):
              if index == survivors - 1 {
                // The last surviving write may be cut short and/or end in garbage or zeros.
                let keep = Int(rng.next() % UInt64(bytes.count + 1))
                bytes = Array(bytes.prefix(keep))
                switch rng.next() % 3 {
                case 0: bytes += (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                case 1: bytes += [UInt8](repeating: 0, count: Int(rng.next() % 64))
                default: break
                }
              }
              Self.write(&contents, bytes, at: offset)
            }
          }
        }
        inode.current = contents
        inode.durable = contents
        inode.unsynced = []
        inode.locked = false
      }
    }
  }

  /// The current contents of `path` (what a reader would see now).
  public func contents(of path: String) -> [UInt8]? {
    state.withLock { $0.names[path]?.current }
  }

  /// Replaces the contents of `path` (creating it), durably — for corrupting files in tests.
  public func setContents(_ bytes: [UInt8], of path: String) {
    state.withLock { s in
      let inode = s.names[path] ?? Inode()
      inode.current = bytes
      inode.durable = bytes
      inode.unsynced = []
      s.names[path] = inode
      s.durableNames[path] = inode
    }
  }

  /// All current paths, sorted.
  public func paths() -> [String] { state.withLock { $0.names.keys.sorted() } }

  static func resize(_ bytes: inout [UInt8], to size: Int) {
    if bytes.count > size { bytes.removeLast(bytes.count - size) } else { bytes += [UInt8](repeating: 0, count: size - bytes.count) }
  }

  static func write(_ contents: inout [UInt8], _ bytes: [UInt8], at offset: Int) {
    if contents.count < offset + bytes.count { resize(&contents, to: offset + bytes.count) }
    contents.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
  }

  /// Counts the call and throws if a fault is due. Caller holds the lock.
  static func check(_ operation: Operation, _ s: inout State, path: String) throws(JournalError) {
    let call = (s.counts[operation] ?? 0) + 1
    s.counts[operation] = call
    for fault in s.faults where fault.operation == operation {
      if call == fault.onCall || (fault.persistent && call > fault.onCall) {
        throw .io(operation: "injected \(operation) failure", path: path, errno: fault.errno)
      }
    }
  }

  public func open(_ path: String, mode: JournalFileMode) throws(JournalError) -> any JournalFileHandle {
    try state.withLock { (s) throws(JournalError) -> any JournalFileHandle in
      try Self.check(.open, &s, path: path)
      let inode: Inode
      switch mode {
      case .read, .readWrite:
        guard let existing = s.names[path] else { throw .io(operation: "open", path: path, errno: ENOENT) }
        inode = existing
      case .createNew:
        guard s.names[path] == nil else { throw .io(operation: "open", path: path, errno: EEXIST) }
        inode = Inode()
        s.names[path] = inode
      }
      return _FaultInjectingFile(fs: self, inode: inode, path: path, generation: s.generation, writable: mode != .read)
    }
  }

  public func rename(_ from: String, to: String) throws(JournalError) {
    try state.withLock { (s) throws(JournalError) in
      try Self.check(.rename, &s, path: from)
      guard let inode = s.names.removeValue(forKey: from) else { throw .io(operation: "rename", path: from, errno: ENOENT) }
      s.names[to] = inode
    }
  }

  public func remove(_ path: String) throws(JournalError) {
    try state.withLock { (s) throws(JournalError) in
      try Self.check(.remove, &s, path: path)
      s.names[path] = nil
    }
  }

  public func exists(_ path: String) -> Bool { state.withLock { $0.names[path] != nil } }

  public func syncDirectory(containing path: String) throws(JournalError) {
    try state.withLock { (s) throws(JournalError) in
      try Self.check(.syncDirectory, &s, path: path)
      let directory = _directoryName(of: path)
      s.durableNames = s.durableNames.filter { _directoryName(of: $0.key) != directory }
      for (name, inode) in s.names where _directoryName(of: name) == directory { s.durableNames[name] = inode }
    }
  }
}

/// A handle of `FaultInjectingFileSystem`.
final class _FaultInjectingFile: JournalFileHandle, @unchecked Sendable {
  // @unchecked: all state is behind the file system's lock except `closed`, set under it too.
  let fs: FaultInjectingFileSystem
  let inode: FaultInjectingFileSystem.Inode
  let path: String
  let generation: Int
  let writable: Bool
  private var closed = false
  private var holdsLock = false

  init(fs: FaultInjectingFileSystem, inode: FaultInjectingFileSystem.Inode, path: String, generation: Int, writable: Bool) {
    self.fs = fs
    self.inode = inode
    self.path = path
    self.generation = generation
    self.writable = writable
  }

  deinit { close() }

  private func withAlive<R>(_ body: (inout FaultInjectingFileSystem.State) throws(JournalError) -> R) throws(JournalError) -> R {
    try fs.state.withLock { (s) throws(JournalError) -> R in
      guard !closed, s.generation == generation else { throw .io(operation: "use of a handle after close or crash", path: path, errno: EBADF) }
      return try body(&s)
    }
  }

  func size() throws(JournalError) -> Int64 { try withAlive { _ in Int64(inode.current.count) } }

  func read(at offset: Int64, count: Int) throws(JournalError) -> [UInt8] {
    try withAlive { _ in
      let start = min(Int(offset), inode.current.count)
      return Array(inode.current[start..<min(start + count, inode.current.count)])
    }
  }

  func write(_ bytes: [UInt8], at offset: Int64) throws(JournalError) {
    try withAlive { (s) throws(JournalError) in
      guard writable else { throw .io(operation: "write", path: path, errno: EBADF) }
      try FaultInjectingFileSystem.check(.write, &s, path: path)
      FaultInjectingFileSystem.write(&inode.current, bytes, at: Int(offset))
      inode.unsynced.append(.write(offset: Int(offset), bytes: bytes))
    }
  }

  func truncate(to size: Int64) throws(JournalError) {
    try withAlive { (s) throws(JournalError) in
      try FaultInjectingFileSystem.check(.truncate, &s, path: path)
      FaultInjectingFileSystem.resize(&inode.current, to: Int(size))
      inode.unsynced.append(.truncate(size: Int(size)))
    }
  }

  func sync(dataOnly: Bool) throws(JournalError) {
    try withAlive { (s) throws(JournalError) in
      try FaultInjectingFileSystem.check(.sync, &s, path: path)
      inode.durable = inode.current
      inode.unsynced = []
    }
  }

  func tryLockExclusive() throws(JournalError) -> Bool {
    try withAlive { _ in
      if holdsLock { return true }
      if inode.locked { return false }
      inode.locked = true
      holdsLock = true
      return true
    }
  }

  func close() {
    fs.state.withLock { s in
      guard !closed else { return }
      closed = true
      if holdsLock && s.generation == generation { inode.locked = false }
      holdsLock = false
    }
  }
}

/// Small deterministic generator for reproducible crash tearing.
package struct _SplitMix64 {
  var state: UInt64
  package init(seed: UInt64) { state = seed }
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
