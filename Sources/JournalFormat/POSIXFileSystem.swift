#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file layer: POSIX `open`/`pread`/`pwrite`/`fdatasync`/`flock`/`mmap`.
///
/// On Apple platforms a data sync uses `F_FULLFSYNC`, because plain `fsync` there does not
/// flush the drive's cache.
///
/// ```swift
/// let writer = try JournalWriter.create(at: path, options: JournalOptions()) // uses POSIXFileSystem
/// ```
public struct POSIXFileSystem: JournalFileSystem {
  public init() {}

  public func open(_ path: String, mode: JournalFileMode) throws(JournalError) -> any JournalFileHandle {
    let flags: Int32
    switch mode {
    case .read: flags = O_RDONLY
    case .readWrite: flags = O_RDWR
    case .createNew: flags = O_RDWR | O_CREAT | O_EXCL
    }
    let fd = _retryingEINTR { Glibc_open(path, flags | O_CLOEXEC, 0o644) }
    guard fd >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
    return _POSIXFile(fd: fd, path: path)
  }

  public func rename(_ from: String, to: String) throws(JournalError) {
    guard Glibc_rename(from, to) == 0 else { throw .io(operation: "rename to \(to)", path: from, errno: errno) }
  }

  public func remove(_ path: String) throws(JournalError) {
    guard unlink(path) == 0 || errno == ENOENT else { throw .io(operation: "unlink", path: path, errno: errno) }
  }

  public func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  public func syncDirectory(containing path: String) throws(JournalError) {
    let directory = _directoryName(of: path)
    let fd = Glibc_open(directory, O_RDONLY | O_CLOEXEC, 0)
    guard fd >= 0 else { throw .io(operation: "open directory", path: directory, errno: errno) }
    defer { _closeFD(fd) }
    guard fsync(fd) == 0 else { throw .io(operation: "fsync directory", path: directory, errno: errno) }
  }
}

/// The parent directory of `path` ("." for a bare name).
package func _directoryName(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

@inline(__always)
private func _retryingEINTR(_ body: () -> Int32) -> Int32 {
  while true {
    let result = body()
    if result >= 0 || errno != EINTR { return result }
  }
}

// Module-qualified aliases: inside this file `open`/`rename`/`close` would otherwise resolve to
// the protocol methods.
@inline(__always) private func Glibc_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  #if canImport(Glibc)
  Glibc.open(path, flags, mode)
  #elseif canImport(Musl)
  Musl.open(path, flags, mode)
  #else
  Darwin.open(path, flags, mode)
  #endif
}

@inline(__always) private func Glibc_rename(_ from: String, _ to: String) -> Int32 {
  #if canImport(Glibc)
  Glibc.rename(from, to)
  #elseif canImport(Musl)
  Musl.rename(from, to)
  #else
  Darwin.rename(from, to)
  #endif
}

@inline(__always) private func _closeFD(_ fd: Int32) {
  #if canImport(Glibc)
  _ = Glibc.close(fd)
  #elseif canImport(Musl)
  _ = Musl.close(fd)
  #else
  _ = Darwin.close(fd)
  #endif
}

/// One open POSIX file descriptor.
final class _POSIXFile: JournalFileHandle, @unchecked Sendable {
  // @unchecked: `fd` is only mutated by `close()`, which callers serialize (the writer's lock).
  private var fd: Int32
  let path: String

  init(fd: Int32, path: String) {
    self.fd = fd
    self.path = path
  }

  deinit { close() }

  func size() throws(JournalError) -> Int64 {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .io(operation: "fstat", path: path, errno: errno) }
    return Int64(info.st_size)
  }

  func read(at offset: Int64, count: Int) throws(JournalError) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: count)
    var done = 0
    let failure: Int32? = result.withUnsafeMutableBytes { buffer in
      while done < count {
        let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        if n == 0 { break }
        done += n
      }
      return nil
    }
    if let failure { throw .io(operation: "pread", path: path, errno: failure) }
    if done < count { result.removeLast(count - done) }
    return result
  }

  func write(_ bytes: [UInt8], at offset: Int64) throws(JournalError) {
    var done = 0
    let failure: Int32? = bytes.withUnsafeBytes { buffer in
      while done < buffer.count {
        let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        done += n
      }
      return nil
    }
    if let failure { throw .io(operation: "pwrite", path: path, errno: failure) }
  }

  func truncate(to size: Int64) throws(JournalError) {
    guard ftruncate(fd, off_t(size)) == 0 else { throw .io(operation: "ftruncate", path: path, errno: errno) }
  }

  func sync(dataOnly: Bool) throws(JournalError) {
    #if canImport(Darwin)
    // F_FULLFSYNC is the only call that reaches stable storage on Apple platforms.
    if fcntl(fd, F_FULLFSYNC) == 0 { return }
    guard fsync(fd) == 0 else { throw .io(operation: "fsync", path: path, errno: errno) }
    #else
    let result = dataOnly ? fdatasync(fd) : fsync(fd)
    guard result == 0 else { throw .io(operation: dataOnly ? "fdatasync" : "fsync", path: path, errno: errno) }
    #endif
  }

  func tryLockExclusive() throws(JournalError) -> Bool {
    // flock locks belong to the open file description, so a second writer in the same process
    // (a separate open) is refused too, unlike fcntl record locks.
    //
    // A refusal is retried for up to ~30 ms before it is reported: a child process spawned by
    // any thread of this process (posix_spawn, fork) shares our open file descriptions until its
    // `exec` closes them (O_CLOEXEC), so a writer that was just closed can look locked for that
    // instant. A real second writer holds the lock far longer and is still refused.
    var pause: UInt32 = 2_000
    while true {
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
      guard errno == EWOULDBLOCK else { throw .io(operation: "flock", path: path, errno: errno) }
      if pause > 16_000 { return false }
      usleep(pause)
      pause *= 2
    }
  }

  func mapReadOnly(length: Int) throws(JournalError) -> JournalMappedBytes {
    guard length > 0 else { return JournalMappedBytes(bytes: []) }
    let address = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)
    guard let address, address != MAP_FAILED else {
      // Fall back to reading (for file systems without mmap).
      return JournalMappedBytes(bytes: try read(at: 0, count: length))
    }
    return JournalMappedBytes(base: UnsafeRawPointer(address), count: length) { base, count in
      _ = munmap(UnsafeMutableRawPointer(mutating: base), count)
    }
  }

  func close() {
    if fd >= 0 {
      _closeFD(fd)
      fd = -1
    }
  }
}
