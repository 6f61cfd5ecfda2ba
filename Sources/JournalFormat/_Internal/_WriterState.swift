/// The mutable state of a `JournalWriter`, only touched under its lock.
struct _WriterState: ~Copyable {
  var file: (any JournalFileHandle)?
  let compressor: _ZstdCompressor
  /// Where the next chunk goes.
  var endOffset: Int64
  /// Offset and stored checksum of the last chunk in the file (for `JournalPrefix`).
  var lastChunk: (offset: Int64, checksum: UInt32)?
  var nextSequence: UInt64
  var lastVersion: UInt64?
  /// Whether the current zstd frame has chunks in the file (so the next chunk continues it).
  var frameOpen = false
  var frameInputBytes = 0

  // Records encoded but not yet in a chunk.
  var pending: [UInt8] = []
  var pendingCount: UInt32 = 0
  var pendingFirstSequence: UInt64 = 0
  var pendingFirstVersion: UInt64 = 0
  var pendingLastVersion: UInt64 = 0
  var pendingStartsWithCheckpoint = false

  /// The staging log small chunks go to while staging is on (nil until the first one).
  var staging: _StagingLog?
  var stagingCompressor: _ZstdCompressor?
  /// Records written to the staging log and not yet to the journal (a chunk's worth, deltas
  /// chained), which the next journal chunk carries.
  var staged: [UInt8] = []
  var stagedCount: UInt32 = 0
  var stagedFirstSequence: UInt64 = 0
  var stagedFirstVersion: UInt64 = 0
  var stagedLastVersion: UInt64 = 0
  /// The staging log holds records the journal now has too: the next staged chunk goes to a
  /// fresh one.
  var stagingFolded = false
  /// Written chunks not yet covered by a sync, per file.
  var journalDirty = false
  var stagingDirty = false
  /// Sequence of the journal's own last record (``writtenSequence`` also counts staged ones).
  var journalWrittenSequence: UInt64
  /// The journal's own records known durable (a fresh staging log may replace one whose
  /// records the journal holds only once they are).
  var journalDurableSequence: UInt64

  /// Highest sequence written to the file / known durable.
  var writtenSequence: UInt64
  var durableSequence: UInt64
  /// Set once the writer stops (close or failure); every later call throws.
  var closedReason: String?
  var timerScheduled = false
  /// A full group was written and its sync handed to another thread (not yet started).
  var syncRequested = false
  /// Grouped durability's sync thread is compressing and writing a chunk it took out of
  /// `pending`, without the lock: until it is done, the compressor, `endOffset` and the frame
  /// fields are its own and nothing else writes a chunk (see `JournalWriter._groupSync`).
  var chunkInFlight = false
  /// Checkpoint appends blocked until the chunk in flight is written (see
  /// `JournalWriter._whenNoChunkInFlight`); nonzero only while `chunkInFlight` or just after.
  /// Kept for tests, which see a checkpoint waiting through it.
  var waitingForChunkInFlight = 0

  init(
    file: any JournalFileHandle, compressor: _ZstdCompressor, endOffset: Int64, lastChunk: (offset: Int64, checksum: UInt32)?,
    nextSequence: UInt64, lastVersion: UInt64?
  ) {
    self.file = file
    self.compressor = compressor
    self.endOffset = endOffset
    self.lastChunk = lastChunk
    self.nextSequence = nextSequence
    self.lastVersion = lastVersion
    writtenSequence = nextSequence &- 1
    journalWrittenSequence = nextSequence &- 1
    journalDurableSequence = nextSequence &- 1
    durableSequence = nextSequence &- 1
  }
}

/// A chunk taken out of the pending records with everything needed to write it: by the
/// appending thread under the writer's lock, or by grouped durability's sync thread without it.
struct _TakenChunk {
  let file: any JournalFileHandle
  let compressor: _ZstdCompressor
  /// The salt its checksum takes: the journal's, or the staging log's.
  let salt: UInt64
  /// The staging log it goes to (nil: the journal).
  let staging: _StagingLog?
  var records: [UInt8]
  /// Its header but for the lengths, which ``JournalWriter`` fills in once it is compressed.
  var header: _ChunkHeader
  /// The sequence of its last record (of the last written one for an empty chunk).
  let lastSequence: UInt64
  /// Where the chunk goes.
  let offset: Int64

  /// Whether the chunk ends its frame.
  var endFrame: Bool { header.isFrameEnd }
}

/// A chunk as written: its size in the file and its stored checksum.
struct _WrittenChunk {
  let byteCount: Int64
  let checksum: UInt32
}

/// What a sync must cover: the files with writes since the last one (the journal first) and
/// the sequences it makes durable.
struct _UnsyncedWrites {
  var files: [any JournalFileHandle]
  /// The last written record's sequence.
  var sequence: UInt64
  /// The journal's own last record's sequence.
  var journalSequence: UInt64
}
