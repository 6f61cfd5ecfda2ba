#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in ``JournalSession`` that keeps the history as list-language lines in a text file,
/// until the zstd journal and the history engine land.
///
/// File: the line `listjournal-text-journal 1`, then per committed transaction its commands
/// followed by `commit TIME "LABEL"`, and `undo N` / `redo N` / `checkout V` for head moves.
/// Commands after the last `commit` (a torn tail) are dropped on open.
final class _TextJournalSession: JournalSession {
  static let magic = "listjournal-text-journal 1"

  private var history = _StandinHistory()
  private var pending: TextSnapshot?
  private var pendingOperations: [String] = []
  private var pendingLabels: [String] = []
  private var descriptor: Int32 = -1
  private var buffer: [UInt8] = []
  private let durability: CLIDurability
  private var commitsSinceSync = 0
  private(set) var durableVersion = 0
  private var writtenVersion = 0
  private let path: String

  var headVersion: Int { history.head }
  var currentSnapshot: TextSnapshot { pending ?? history.headSnapshot }
  var isInTransaction: Bool { pending != nil }

  init(path: String, mode: JournalSessionMode) throws(ListLanguageError) {
    self.path = path
    switch mode {
    case .readOnly:
      durability = .relaxed
      guard let text = Self.readFile(path) else {
        throw ListLanguageError(message: "cannot open journal '\(path)': \(String(cString: strerror(errno)))")
      }
      try load(text)
    case .readWrite(let durability, let createIfMissing):
      self.durability = durability
      if let text = Self.readFile(path) {
        try load(text)
      } else if errno == ENOENT && createIfMissing {
        buffer.append(contentsOf: Array((Self.magic + "\n").utf8))
      } else {
        throw ListLanguageError(message: "cannot open journal '\(path)': \(String(cString: strerror(errno)))")
      }
      descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
      guard descriptor >= 0 else {
        throw ListLanguageError(message: "cannot open journal '\(path)' for writing: \(String(cString: strerror(errno)))")
      }
      try flushBuffer()
      durableVersion = history.versions.count - 1
      writtenVersion = durableVersion
    }
  }

  private static func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { closeDescriptor(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private func load(_ text: String) throws(ListLanguageError) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    guard lines.first.map(String.init) == Self.magic else {
      throw ListLanguageError(line: 1, message: "'\(path)' is not a ListJournal journal")
    }
    var snapshot = history.headSnapshot
    var operations: [String] = []
    for (offset, line) in lines.enumerated().dropFirst() {
      let number = offset + 1
      do throws(ListLanguageError) {
        let tokens = try ListTokenizer.tokenize(String(line))
        if tokens.count == 3, tokens[0].isKeyword("commit") {
          let time = Double(tokens[1].text) ?? 0
          _ = history.commit(snapshot, label: tokens[2].text, operations: operations, time: time)
          operations = []
          continue
        }
        guard let command = try ListCommandParser.parse(tokens: tokens) else { continue }
        switch command {
        case .undo(let count):
          _ = try history.undo(count)
          snapshot = history.headSnapshot
        case .redo(let count):
          _ = try history.redo(count)
          snapshot = history.headSnapshot
        case .checkout(let version):
          history.moveHead(to: try history.resolve(version))
          snapshot = history.headSnapshot
        default:
          try snapshot.apply(command)
          operations.append(command.description)
        }
      } catch {
        throw ListLanguageError(message: "bad journal '\(path)': line \(number): \(error.message)")
      }
    }
  }

  func begin() throws(ListLanguageError) {
    guard pending == nil else { throw ListLanguageError(message: "a transaction is already open") }
    pending = history.headSnapshot
    pendingOperations = []
    pendingLabels = []
  }

  func apply(_ command: ListCommand) throws(ListLanguageError) {
    guard var snapshot = pending else { throw ListLanguageError(message: "no open transaction") }
    pending = nil  // keep the storage uniquely referenced while mutating
    defer { pending = snapshot }
    try snapshot.apply(command)
    pendingOperations.append(command.description)
    if pendingLabels.last != command.label { pendingLabels.append(command.label) }
  }

  func commit() throws(ListLanguageError) -> Int? {
    guard let snapshot = pending else { throw ListLanguageError(message: "no open transaction") }
    pending = nil
    guard !pendingOperations.isEmpty else { return nil }
    let label = pendingLabels.count <= 3 ? pendingLabels.joined(separator: ", ") : "\(pendingOperations.count) Changes"
    let time = Self.now()
    let version = history.commit(snapshot, label: label, operations: pendingOperations, time: time)
    for operation in pendingOperations {
      append(operation)
    }
    append("commit \(time) \(ListTokenizer.quoted(label, force: true))")
    try didWrite(version: version)
    return version
  }

  func rollback() {
    pending = nil
    pendingOperations = []
  }

  private static func now() -> Double {
    if let epoch = getenv("SOURCE_DATE_EPOCH"), let seconds = Double(String(cString: epoch)) { return seconds }
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return (Double(spec.tv_sec) + Double(spec.tv_nsec / 1_000_000) / 1000)
  }

  func undo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    try requireNoTransaction("undo")
    let steps = try history.undo(count)
    append("undo \(count)")
    try didWrite(version: nil)
    return steps
  }

  func redo(_ count: Int) throws(ListLanguageError) -> [HistoryStep] {
    try requireNoTransaction("redo")
    let steps = try history.redo(count)
    append("redo \(count)")
    try didWrite(version: nil)
    return steps
  }

  func checkout(_ version: VersionReference) throws(ListLanguageError) -> Int {
    try requireNoTransaction("checkout")
    let number = try history.resolve(version)
    history.moveHead(to: number)
    append("checkout \(number)")
    try didWrite(version: nil)
    return number
  }

  private func requireNoTransaction(_ name: String) throws(ListLanguageError) {
    if pending != nil { throw ListLanguageError(message: "\(name) inside a transaction; commit or rollback first") }
  }

  func resolve(_ version: VersionReference) throws(ListLanguageError) -> Int { try history.resolve(version) }

  func snapshot(at version: Int) throws(ListLanguageError) -> TextSnapshot {
    _ = try history.resolve(.number(version))
    return history.versions[version].snapshot
  }

  func versions() -> [LogEntry] { history.infos() }

  // MARK: Writing

  private func append(_ line: String) {
    var line = line
    line.withUTF8 { buffer.append(contentsOf: $0) }
    buffer.append(0x0A)
  }

  private func didWrite(version: Int?) throws(ListLanguageError) {
    if let version { writtenVersion = version }
    switch durability {
    case .strict:
      try flushBuffer()
      try sync()
    case .grouped:
      commitsSinceSync += 1
      if commitsSinceSync >= 64 || buffer.count >= 64 * 1024 {
        try flushBuffer()
        try sync()
      }
    case .relaxed:
      if buffer.count >= 256 * 1024 { try flushBuffer() }
    }
  }

  private func flushBuffer() throws(ListLanguageError) {
    guard descriptor >= 0, !buffer.isEmpty else { return }
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if written < 0 {
        if errno == EINTR { continue }
        throw ListLanguageError(message: "cannot write journal '\(path)': \(String(cString: strerror(errno)))")
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
    if durability == .relaxed { durableVersion = writtenVersion }
  }

  private func sync() throws(ListLanguageError) {
    guard descriptor >= 0 else { return }
    guard fsync(descriptor) == 0 else {
      let message = String(cString: strerror(errno))
      closeDescriptor(descriptor)
      descriptor = -1
      throw ListLanguageError(message: "cannot sync journal '\(path)': \(message); the journal is closed")
    }
    commitsSinceSync = 0
    durableVersion = writtenVersion
  }

  func synchronize() throws(ListLanguageError) {
    try flushBuffer()
    if durability != .relaxed, durableVersion < writtenVersion || commitsSinceSync > 0 { try sync() }
  }

  func close() throws(ListLanguageError) {
    guard descriptor >= 0 else { return }
    try flushBuffer()
    try sync()
    closeDescriptor(descriptor)
    descriptor = -1
  }
}
