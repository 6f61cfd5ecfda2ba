/// The staging log of a journal (`<journal>.staging`, Journal/FORMAT.md §5.1): where a writer with
/// staging on puts its small chunks, each synced as the durability mode says, until it carries
/// them into the journal together as one chunk.
///
/// Its file has a journal's layout with a salt of its own and the journal's salt in the header
/// (``_FileHeader/linkedSalt``). Only the journal's writer, which holds the journal's lock,
/// reads or writes it.
final class _StagingLog: @unchecked Sendable {
  // @unchecked: used only under the owning writer's lock (or by its sync thread with the chunk
  // in flight), as the journal's own file and compressor are.
  let path: String
  let file: any JournalFileHandle
  let compressor: _ZstdCompressor
  let salt: UInt64
  /// Where the next chunk goes, and whether a zstd frame is open for it to continue.
  var endOffset = Int64(_FileHeader.size)
  var frameOpen = false

  private init(path: String, file: any JournalFileHandle, compressor: _ZstdCompressor, salt: UInt64) {
    self.path = path
    self.file = file
    self.compressor = compressor
    self.salt = salt
  }

  /// A new, empty staging log for the journal salted `journalSalt`, replacing any earlier one in
  /// one rename: written to a temporary file, synced, renamed, the directory synced — so the
  /// chunks staged in it are found after a crash.
  /// `compressor` is the writer's one for staging logs, reused from log to log (a new zstd
  /// context per log cost more than the batching saved).
  static func create(
    path: String, journalSalt: UInt64, formatMinor: UInt16, compressor: _ZstdCompressor, options: JournalOptions
  ) throws(JournalError) -> _StagingLog {
    let fs = options.fileSystem
    let temporary = path + ".creating-\(UInt32.random(in: 0...UInt32.max))"
    let file = try fs.open(temporary, mode: .createNew)
    do throws(JournalError) {
      var header = _FileHeader(salt: UInt64.random(in: 1...UInt64.max), createdAtNanoseconds: _nowNanoseconds())
      header.minor = formatMinor
      header.linkedSalt = journalSalt
      try file.write(header.encode(), at: 0)
      try file.sync(dataOnly: false)
      try fs.rename(temporary, to: path)
      try fs.syncDirectory(containing: path)
      compressor.startNewFrame()
      return _StagingLog(path: path, file: file, compressor: compressor, salt: header.salt)
    } catch {
      file.close()
      try? fs.remove(temporary)
      throw error
    }
  }

  /// The records of the staging log at `path` if it belongs to the journal salted
  /// `journalSalt`: every record of its intact chunks, in order, up to the first damage (a
  /// chunk torn by a crash was never reported durable). Empty for a log of another journal or
  /// one whose header did not survive.
  static func records(at path: String, journalSalt: UInt64, options: JournalOptions) -> [JournalRecord] {
    guard let reader = try? JournalReader.open(at: path, limits: options.limits, fileSystem: options.fileSystem, tolerateCorruption: true),
      reader.linkedSalt == journalSalt
    else { return [] }
    var records: [JournalRecord] = []
    var iterator = reader.makeIterator()
    while true {
      do throws(JournalError) {
        guard let record = try iterator.next() else { break }
        records.append(record)
      } catch { break }
    }
    return records
  }

  func close() { file.close() }
}
