import libzstd

/// Why a journal's read index (`<journal>.index`, Journal/FORMAT.md §11) was not used. Never a
/// reason to fail a read: the index is a cache, and a reader without it replays the journal.
///
/// ```swift
/// do { _ = try JournalReadIndexFile.read(at: JournalReadIndexFile.path(forJournal: path)) }
/// catch .stale(_, let reason) { print("the journal changed since the index was written: \(reason)") }
/// catch { print(error) }
/// ```
public enum JournalReadIndexProblem: Error, Hashable, Sendable, CustomStringConvertible {
  /// There is no index file.
  case missing(path: String)
  /// The index file could not be read.
  case unreadable(JournalError)
  /// The bytes at `offset` are not a valid index (bad magic, checksum, structure, compressed
  /// data, or contents that do not decode).
  case damaged(path: String, offset: Int64, reason: String)
  /// The index was written in a form this reader does not know (a newer index format major,
  /// or states encoded in a newer history format).
  case unsupported(path: String, reason: String)
  /// The index describes another journal, an older generation of this one, or a shorter or
  /// different prefix of it (appended to, compacted or repaired since).
  case stale(path: String, reason: String)

  public var description: String {
    switch self {
    case .missing(let path): return "no read index at \(path)"
    case .unreadable(let error): return "read index unreadable: \(error)"
    case .damaged(let path, let offset, let reason): return "read index \(path) damaged at byte offset \(offset): \(reason)"
    case .unsupported(let path, let reason): return "read index \(path) unsupported: \(reason)"
    case .stale(let path, let reason): return "read index \(path) does not describe the journal: \(reason)"
    }
  }
}

/// The container of a journal's read index: a header naming the journal prefix it describes,
/// a directory of sections (each zstd-compressed or stored), and a CRC32C over the whole file
/// (Journal/FORMAT.md §11). What the sections hold is the history layer's business
/// (`JournalReadIndex` in ListJournal); this type only frames, checks and compresses them.
///
/// ```swift
/// let bytes = try JournalReadIndexFile.encode(journal: writer.prefix, sections: [.init(kind: 1, bytes: counters)])
/// try JournalReadIndexFile.write(bytes, at: JournalReadIndexFile.path(forJournal: path))
/// let file = try JournalReadIndexFile.read(at: JournalReadIndexFile.path(forJournal: path))
/// let counters = try file.section(1)
/// ```
@usableFromInline package struct JournalReadIndexFile: Sendable {
  /// `\x89LJIDX\r\n`: like the journal's magic, a non-ASCII first byte and a CR-LF pair.
  package static let magic: [UInt8] = [0x89, 0x4C, 0x4A, 0x49, 0x44, 0x58, 0x0D, 0x0A]
  package static let formatMajor: UInt16 = 1
  package static let formatMinor: UInt16 = 0
  /// Header bytes before the section directory.
  package static let headerSize = 64
  /// Bytes per directory entry: kind, flags, offset, stored length, length.
  package static let directoryEntrySize = 32
  /// The largest index file, and the largest section once decompressed, a reader accepts: the
  /// cap on what a crafted file can make it allocate.
  package static let maximumBytes = 1 << 30
  /// Directory flag: the section's bytes are one zstd frame.
  package static let compressedFlag: UInt32 = 1

  /// One section to write: a kind (readers skip kinds they do not know) and its bytes.
  @usableFromInline package struct Section: Sendable {
    @usableFromInline package var kind: UInt32
    @usableFromInline package var bytes: [UInt8]
    /// Whether to store it zstd-compressed (small sections are stored as they are).
    @usableFromInline package var compressed: Bool

    @usableFromInline package init(kind: UInt32, bytes: [UInt8], compressed: Bool = true) {
      self.kind = kind
      self.bytes = bytes
      self.compressed = compressed
    }
  }

  /// Where a section lies in the file.
  struct Entry: Sendable {
    var kind: UInt32
    var flags: UInt32
    var offset: Int
    var storedLength: Int
    var length: Int
  }

  /// The index file's path for the journal at `journalPath`.
  @usableFromInline package static func path(forJournal journalPath: String) -> String { journalPath + ".index" }

  /// The path it was read from.
  @usableFromInline package let path: String
  /// The journal prefix the index describes.
  @usableFromInline package let journal: JournalPrefix
  /// The index format minor it was written with.
  package let formatMinor: UInt16
  let bytes: [UInt8]
  let entries: [Entry]

  /// The kinds of the sections present, in file order.
  package var sectionKinds: [UInt32] { entries.map(\.kind) }

  /// The bytes of the first section of `kind`, decompressed; nil when there is none.
  ///
  /// - Throws: `.damaged` when its compressed bytes do not decode to its declared length.
  /// - Complexity: O(its length).
  @usableFromInline package func section(_ kind: UInt32) throws(JournalReadIndexProblem) -> [UInt8]? {
    guard let entry = entries.first(where: { $0.kind == kind }) else { return nil }
    let stored = bytes[entry.offset..<(entry.offset + entry.storedLength)]
    guard entry.flags & Self.compressedFlag != 0 else { return Array(stored) }
    var output = [UInt8](repeating: 0, count: entry.length)
    let produced = output.withUnsafeMutableBytes { dst in
      stored.withUnsafeBytes { src in ZSTD_decompress(dst.baseAddress, dst.count, src.baseAddress, src.count) }
    }
    if ZSTD_isError(produced) != 0 {
      throw .damaged(
        path: path, offset: Int64(entry.offset), reason: "section \(kind): zstd: \(String(cString: ZSTD_getErrorName(produced)))")
    }
    guard produced == entry.length else {
      throw .damaged(
        path: path, offset: Int64(entry.offset), reason: "section \(kind) decodes to \(produced) bytes, the directory says \(entry.length)")
    }
    return output
  }

  // MARK: Reading

  /// Reads and checks an index file: its checksum, header and section directory (sections are
  /// decompressed only when asked for, by ``section(_:)``).
  ///
  /// - Throws: `.missing`, `.unreadable`, `.damaged` (naming the offset) or `.unsupported`;
  ///   never traps, whatever the bytes.
  /// - Complexity: O(file size) for the checksum.
  @usableFromInline package static func read(
    at path: String, fileSystem: any JournalFileSystem = POSIXFileSystem()
  ) throws(JournalReadIndexProblem) -> JournalReadIndexFile {
    guard fileSystem.exists(path) else { throw .missing(path: path) }
    let bytes: [UInt8]
    do throws(JournalError) {
      let file = try fileSystem.open(path, mode: .read)
      defer { file.close() }
      let size = try file.size()
      guard size <= Int64(maximumBytes) else {
        throw JournalError.tooLarge(what: "read index", size: size, limit: Int64(maximumBytes), offset: nil)
      }
      bytes = try file.read(at: 0, count: Int(size))
    } catch {
      throw .unreadable(error)
    }
    return try decode(bytes, path: path)
  }

  /// ``read(at:fileSystem:)`` of bytes already in memory.
  package static func decode(_ bytes: [UInt8], path: String) throws(JournalReadIndexProblem) -> JournalReadIndexFile {
    func damaged(_ offset: Int, _ reason: String) -> JournalReadIndexProblem {
      .damaged(path: path, offset: Int64(offset), reason: reason)
    }
    guard bytes.count >= headerSize + 4 else { throw damaged(0, "\(bytes.count) bytes, shorter than a header and a checksum") }
    guard bytes[0..<8].elementsEqual(magic) else { throw damaged(0, "bad magic") }
    let parsed = bytes.withUnsafeBytes { raw in
      Result { () throws(JournalReadIndexProblem) -> JournalReadIndexFile in try parse(raw, bytes: bytes, path: path) }
    }
    return try parsed.get()
  }

  /// The header and directory of `raw` (the bytes of `bytes`), after its checksum.
  static func parse(_ raw: UnsafeRawBufferPointer, bytes: [UInt8], path: String) throws(JournalReadIndexProblem)
    -> JournalReadIndexFile
  {
    func damaged(_ offset: Int, _ reason: String) -> JournalReadIndexProblem {
      .damaged(path: path, offset: Int64(offset), reason: reason)
    }
    do {
      let end = raw.count - 4
      var crc = _CRC32C()
      crc.update(UnsafeRawBufferPointer(rebasing: raw[0..<end]))
      guard crc.value == raw._loadLE(UInt32.self, at: end) else { throw damaged(end, "checksum mismatch") }
      let major = raw._loadLE(UInt16.self, at: 8)
      let minor = raw._loadLE(UInt16.self, at: 10)
      guard major <= formatMajor else {
        throw .unsupported(path: path, reason: "format \(major).\(minor) is newer than this reader's (major \(formatMajor))")
      }
      guard major == formatMajor else { throw damaged(8, "format major \(major)") }
      let headerLength = Int(raw._loadLE(UInt32.self, at: 12))
      guard headerLength >= headerSize, headerLength <= end else { throw damaged(12, "header length \(headerLength)") }
      let journal = JournalPrefix(
        salt: raw._loadLE(UInt64.self, at: 16), length: Int64(bitPattern: raw._loadLE(UInt64.self, at: 24)),
        lastSequence: raw._loadLE(UInt64.self, at: 32), lastChunkOffset: Int64(bitPattern: raw._loadLE(UInt64.self, at: 40)),
        lastChunkChecksum: raw._loadLE(UInt32.self, at: 48))
      let count = Int(raw._loadLE(UInt32.self, at: 52))
      guard count <= (end - headerLength) / directoryEntrySize else { throw damaged(52, "\(count) sections do not fit") }
      var entries: [Entry] = []
      entries.reserveCapacity(count)
      var dataStart = headerLength + count * directoryEntrySize
      for index in 0..<count {
        let at = headerLength + index * directoryEntrySize
        let offset = raw._loadLE(UInt64.self, at: at + 8)
        let stored = raw._loadLE(UInt64.self, at: at + 16)
        let length = raw._loadLE(UInt64.self, at: at + 24)
        let flags = raw._loadLE(UInt32.self, at: at + 4)
        // Sections follow the directory in order, without gaps or overlaps.
        guard offset == UInt64(dataStart), stored <= UInt64(end - dataStart) else {
          throw damaged(at, "section \(index) at \(offset) of \(stored) bytes does not follow at \(dataStart)")
        }
        guard length <= UInt64(maximumBytes), flags & ~compressedFlag == 0,
          flags & compressedFlag != 0 || length == stored
        else { throw damaged(at, "section \(index): flags \(flags), \(stored) bytes stored for \(length)") }
        entries.append(
          Entry(kind: raw._loadLE(UInt32.self, at: at), flags: flags, offset: dataStart, storedLength: Int(stored), length: Int(length)))
        dataStart += Int(stored)
      }
      guard dataStart == end else { throw damaged(dataStart, "\(end - dataStart) bytes after the last section") }
      return JournalReadIndexFile(path: path, journal: journal, formatMinor: minor, bytes: bytes, entries: entries)
    }
  }

  // MARK: Writing

  /// This index's bytes, describing `journal` instead: its sections as they are stored. For a
  /// rewrite of the journal that keeps every record (compaction without a cut), whose salt,
  /// length and chunks change but whose history does not.
  package func describing(_ journal: JournalPrefix) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(self.bytes.count)
    Self.appendHeader(journal: journal, sectionCount: entries.count, to: &bytes)
    var offset = Self.headerSize + entries.count * Self.directoryEntrySize
    for entry in entries {
      Self.appendDirectoryEntry(kind: entry.kind, flags: entry.flags, offset: offset, stored: entry.storedLength, length: entry.length, to: &bytes)
      offset += entry.storedLength
    }
    for entry in entries { bytes.append(contentsOf: self.bytes[entry.offset..<(entry.offset + entry.storedLength)]) }
    var crc = _CRC32C()
    crc.update(bytes)
    bytes._appendLE(crc.value)
    return bytes
  }

  static func appendHeader(journal: JournalPrefix, sectionCount: Int, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: magic)
    bytes._appendLE(formatMajor)
    bytes._appendLE(formatMinor)
    bytes._appendLE(UInt32(headerSize))
    bytes._appendLE(journal.salt)
    bytes._appendLE(UInt64(bitPattern: journal.length))
    bytes._appendLE(journal.lastSequence)
    bytes._appendLE(UInt64(bitPattern: journal.lastChunkOffset))
    bytes._appendLE(journal.lastChunkChecksum)
    bytes._appendLE(UInt32(sectionCount))
    bytes._appendLE(UInt64(0))
  }

  static func appendDirectoryEntry(kind: UInt32, flags: UInt32, offset: Int, stored: Int, length: Int, to bytes: inout [UInt8]) {
    bytes._appendLE(kind)
    bytes._appendLE(flags)
    bytes._appendLE(UInt64(offset))
    bytes._appendLE(UInt64(stored))
    bytes._appendLE(UInt64(length))
  }

  /// The bytes of an index describing `journal`, with `sections` in order (those marked
  /// compressed as zstd frames at `level`).
  ///
  /// - Complexity: O(total bytes), plus compression.
  package static func encode(journal: JournalPrefix, sections: [Section], level: Int32 = 3) throws(JournalError) -> [UInt8] {
    var stored: [(kind: UInt32, flags: UInt32, bytes: [UInt8], length: Int)] = []
    for section in sections {
      guard section.compressed, !section.bytes.isEmpty else {
        stored.append((section.kind, 0, section.bytes, section.bytes.count))
        continue
      }
      let compressed = try compress(section.bytes, level: level)
      // A small section can grow in a zstd frame (its header and block framing).
      if compressed.count < section.bytes.count {
        stored.append((section.kind, compressedFlag, compressed, section.bytes.count))
      } else {
        stored.append((section.kind, 0, section.bytes, section.bytes.count))
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(headerSize + stored.count * directoryEntrySize + stored.reduce(0) { $0 + $1.bytes.count } + 4)
    appendHeader(journal: journal, sectionCount: stored.count, to: &bytes)
    var offset = headerSize + stored.count * directoryEntrySize
    for section in stored {
      appendDirectoryEntry(
        kind: section.kind, flags: section.flags, offset: offset, stored: section.bytes.count, length: section.length,
        to: &bytes)
      offset += section.bytes.count
    }
    for section in stored { bytes.append(contentsOf: section.bytes) }
    var crc = _CRC32C()
    crc.update(bytes)
    bytes._appendLE(crc.value)
    return bytes
  }

  /// Replaces the file at `path` with `bytes` atomically: a temporary file next to it, written
  /// and `fsync`ed, then renamed over it. Readers see the old file or the new one, never part.
  ///
  /// The directory is not synced: after a crash the rename may be lost, leaving the older index
  /// (which the journal's prefix then no longer matches, so it is ignored) or none.
  package static func write(
    _ bytes: [UInt8], at path: String, fileSystem: any JournalFileSystem = POSIXFileSystem()
  ) throws(JournalError) {
    let temporary = path + ".writing-\(UInt32.random(in: 0...UInt32.max))"
    let file = try fileSystem.open(temporary, mode: .createNew)
    do throws(JournalError) {
      try file.write(bytes, at: 0)
      try file.sync(dataOnly: false)
      file.close()
      try fileSystem.rename(temporary, to: path)
    } catch {
      file.close()
      try? fileSystem.remove(temporary)
      throw error
    }
  }

  static func compress(_ input: [UInt8], level: Int32) throws(JournalError) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
    let produced = output.withUnsafeMutableBytes { dst in
      input.withUnsafeBytes { src in ZSTD_compress(dst.baseAddress, dst.count, src.baseAddress, src.count, level) }
    }
    if ZSTD_isError(produced) != 0 {
      throw .io(operation: "zstd compress: \(String(cString: ZSTD_getErrorName(produced)))", path: "", errno: 0)
    }
    output.removeSubrange(produced...)
    return output
  }
}
