extension JournalReader {
  /// How many records a writer staged (``JournalOptions/stagingBatchRecords``) that continue
  /// this reader's journal but are not in it yet: commits of a writer still open, or of one that
  /// crashed, which the next writer to open the journal carries in. 0 without a staging log.
  ///
  /// ```swift
  /// let staged = try JournalReader.open(at: path).stagedRecordCount()
  /// if staged > 0 { print("\(staged) newer records are still staged") }
  /// ```
  /// - Complexity: O(staging log size), at most about 64 KiB of records.
  public func stagedRecordCount(fileSystem: any JournalFileSystem = POSIXFileSystem()) -> Int {
    var options = JournalOptions()
    options.fileSystem = fileSystem
    let next = nextSequence
    let records = _StagingLog.records(at: JournalWriter.stagingPath(for: path), journalSalt: salt, options: options)
      .drop { $0.sequence < next }
    guard records.first?.sequence == next else { return 0 }
    return records.count
  }
}
