extension JournalCompactor {
  /// Rewrites the journal at `path` with the records `produce` emits, in order (sequences are
  /// renumbered from 1; a checkpoint starts a frame as usual), at zstd `level`, and swaps the
  /// result in atomically (temporary file, `fsync`, rename, directory `fsync`): a crash leaves
  /// the old file or the new one. For the history layer's rewrites that change records (dropping
  /// old history re-encodes the records that follow the cut).
  ///
  /// ```swift
  /// let report = try JournalCompactor.rewrite(at: path, level: 19, options: options) { reader, emit in
  ///   var iterator = reader.makeIterator()
  ///   while let record = try iterator.next() { try emit(record) }
  /// }
  /// ```
  /// `verify` reads the rewritten file before it replaces the original (its error keeps the
  /// original). Refuses while a writer holds the lock, and a corrupted journal. A read index of
  /// the old file is removed (it describes records the rewrite changed). If anything fails
  /// before the rename, the original is untouched.
  ///
  /// - Complexity: whatever `produce` reads, plus the compression of what it emits.
  @usableFromInline
  package static func rewrite(
    at path: String, level: Int32, options: JournalOptions = JournalOptions(),
    _ produce: (_ reader: JournalReader, _ emit: (JournalRecord) throws(JournalError) -> Void) throws -> Void,
    verify: (_ rewritten: JournalReader) throws -> Void = { _ in }
  ) throws -> Report {
    let fs = options.fileSystem
    let (lockFile, reader) = try lockForRewrite(path, options: options)
    defer { lockFile.close() }
    let temporary = path + ".compact-\(_nowNanoseconds())"
    let writer = try JournalWriter._create(
      at: temporary, options: rewriteOptions(options, level: level, of: reader), firstSequence: 1)
    do {
      try produce(reader) { (record) throws(JournalError) in _ = try writer.append(record) }
      try writer.close()
      let after = try JournalReader.open(at: temporary, limits: options.limits, fileSystem: fs)
      try verify(after)
      try fs.rename(temporary, to: path)
      try fs.syncDirectory(containing: path)
      try? fs.remove(JournalReadIndexFile.path(forJournal: path))
      return Report(
        bytesBefore: reader.recovery.validBytes, bytesAfter: after.recovery.validBytes, recordsBefore: reader.recordCount,
        recordsAfter: after.recordCount)
    } catch {
      try? writer.close()
      try? fs.remove(temporary)
      throw error
    }
  }
}
