import Foundation
@testable import JournalFormat
import JournalFormatTesting
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deterministic payloads that look like small encoded list events (~10 bytes).
func syntheticPayload(_ n: Int) -> [UInt8] {
  var bytes: [UInt8] = [UInt8(n % 4 + 1), UInt8(n % 3)]
  bytes._appendVarint(UInt64((n &* 7919) % 1000))
  bytes._appendVarint(UInt64(n))
  bytes.append(UInt8(truncatingIfNeeded: n * 31))
  return bytes
}

func syntheticRecord(_ n: Int, checkpointEvery: Int = 0) -> JournalRecord {
  let isCheckpoint = checkpointEvery > 0 && n > 0 && n % checkpointEvery == 0
  return JournalRecord(
    kind: isCheckpoint ? .checkpoint : .commit, version: UInt64(n + 1),
    payload: isCheckpoint ? [UInt8](repeating: UInt8(n % 251), count: 40) + syntheticPayload(n) : syntheticPayload(n))
}

func memoryOptions(_ fs: FaultInjectingFileSystem, _ durability: JournalDurability = .strict, frameTarget: Int = 400) -> JournalOptions {
  var options = JournalOptions()
  options.fileSystem = fs
  options.durability = durability
  options.frameTargetBytes = frameTarget
  return options
}

/// A strict-mode journal in memory, with the file size after each durable commit.
struct BuiltJournal {
  var bytes: [UInt8]
  var records: [JournalRecord]
  /// `commitEnds[i]` = file size once record i was durable.
  var commitEnds: [Int]

  /// Records fully contained in the first `size` bytes.
  func committedCount(within size: Int) -> Int { commitEnds.prefix { $0 <= size }.count }
}

func buildJournal(count: Int, checkpointEvery: Int = 25, frameTarget: Int = 400) throws -> BuiltJournal {
  let fs = FaultInjectingFileSystem()
  let writer = try JournalWriter.create(at: "/j", options: memoryOptions(fs, frameTarget: frameTarget))
  var records: [JournalRecord] = []
  var ends: [Int] = []
  for n in 0..<count {
    var record = syntheticRecord(n, checkpointEvery: checkpointEvery)
    record.sequence = try writer.append(record).sequence
    records.append(record)
    ends.append(fs.contents(of: "/j")!.count)
  }
  try writer.close()
  return BuiltJournal(bytes: fs.contents(of: "/j")!, records: records, commitEnds: ends)
}

/// Opens `bytes` as a journal in a fresh in-memory file system.
func openReader(_ bytes: [UInt8], tolerateCorruption: Bool = false) throws(JournalError) -> JournalReader {
  let fs = FaultInjectingFileSystem()
  fs.setContents(bytes, of: "/j")
  return try JournalReader.open(at: "/j", fileSystem: fs, tolerateCorruption: tolerateCorruption)
}

/// A fresh directory under /tmp for tests that need the real file system.
func temporaryDirectory() -> String {
  var template = Array("/tmp/journal-tests-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  return String(cString: path!)
}

func removeDirectory(_ path: String) {
  if let dir = opendir(path) {
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name != "." && name != ".." { unlink(path + "/" + name) }
    }
    closedir(dir)
  }
  rmdir(path)
}

func directoryEntries(_ path: String) -> [String] {
  var names: [String] = []
  if let dir = opendir(path) {
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name != "." && name != ".." { names.append(name) }
    }
    closedir(dir)
  }
  return names.sorted()
}

/// A file system whose file syncs, or its next file write, can be held (blocked until released),
/// over an in-memory one.
final class SyncGate: JournalFileSystem, @unchecked Sendable {
  let base: FaultInjectingFileSystem
  private let condition = NSCondition()
  private var blocking = false
  private var holdingNextWrite = false
  private var releases = 0
  private var waiting = 0

  init(_ base: FaultInjectingFileSystem) { self.base = base }

  /// From now on every file sync waits until `release()`.
  func blockSyncs() { condition.withLock { blocking = true } }

  /// The next file write (that one only) waits until `release()`, then goes to the file system
  /// below (where a fault injected meanwhile fails it).
  func holdNextWrite() { condition.withLock { holdingNextWrite = true } }

  /// Whether a sync or a write is waiting at the gate.
  var isBlocked: Bool { condition.withLock { waiting > 0 } }

  func release() {
    condition.withLock {
      blocking = false
      holdingNextWrite = false
      releases += 1
      condition.broadcast()
    }
  }

  func waitIfBlocked() {
    condition.withLock {
      waiting += 1
      while blocking { condition.wait() }
      waiting -= 1
    }
  }

  func waitIfWriteHeld() {
    condition.withLock {
      guard holdingNextWrite else { return }
      holdingNextWrite = false
      let releasesBefore = releases
      waiting += 1
      while releases == releasesBefore { condition.wait() }
      waiting -= 1
    }
  }

  func open(_ path: String, mode: JournalFileMode) throws(JournalError) -> any JournalFileHandle {
    HookedFile(try base.open(path, mode: mode), beforeWrite: { self.waitIfWriteHeld() }, beforeSync: { self.waitIfBlocked() })
  }
  func rename(_ from: String, to: String) throws(JournalError) { try base.rename(from, to: to) }
  func remove(_ path: String) throws(JournalError) { try base.remove(path) }
  func exists(_ path: String) -> Bool { base.exists(path) }
  func syncDirectory(containing path: String) throws(JournalError) { try base.syncDirectory(containing: path) }
}
