// libFuzzer entry for the journal's untrusted-input paths, compiled together with the
// JournalFormat sources by Tools/fuzz/run. The first input byte picks the target:
//   0: a whole journal file — header, chunk scan, decompression, record parsing (via the reader)
//   1: the zstd decompressor wrapper on raw bytes with a declared output size
//   2: the record parser on raw decoded bytes with a declared record count
// (The history layer's event decoder gets its own target once that codec exists.)

@_cdecl("LLVMFuzzerTestOneInput")
public func journalFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
  var limits = JournalLimits()
  limits.maxChunkBytes = 1 << 20
  limits.maxFrameBytes = 4 << 20
  switch data[0] % 3 {
  case 0:
    let fs = FaultInjectingFileSystem()
    fs.setContents(Array(input), of: "/f")
    for tolerate in [false, true] {
      guard let reader = try? JournalReader.open(at: "/f", limits: limits, fileSystem: fs, tolerateCorruption: tolerate) else { continue }
      var iterator = reader.makeIterator()
      while let record = try? iterator.next() { _ = record.payload.count }
      // The replay's way: one record refilled in place, then the rest visited without copies.
      var refilling = reader.makeIterator()
      var record = JournalRecord(kind: .metadata, version: 0, payload: [])
      var refilled = 0
      while refilled < 3, (try? refilling.next(into: &record)) == true { refilled += 1 }
      try? refilling.forEachRemaining { _, _, _, payload in _ = payload.count }
      if let last = reader.lastVersion { _ = try? reader.nearestCheckpoint(atOrBefore: last / 2) }
    }
  case 1:
    guard input.count >= 3 else { return 0 }
    let expected = Int(input[0]) << 8 | Int(input[1])
    let flags = input[2]
    let decompressor = _ZstdDecompressor()
    let output = _DecodedBytes()
    _ = decompressor.decode(
      UnsafeRawBufferPointer(rebasing: input[3...]), expected: expected, endsFrame: flags & 1 != 0, into: output)
    // A second chunk in the same frame, like a continuation.
    _ = decompressor.decode(
      UnsafeRawBufferPointer(rebasing: input[3...]), expected: expected / 2, endsFrame: flags & 2 != 0, into: output)
  default:
    guard input.count >= 2 else { return 0 }
    let header = _ChunkHeader(
      flags: 1, compressedLength: 0, uncompressedLength: UInt32(input.count - 2), recordCount: UInt32(input[0]),
      firstSequence: 1, firstVersion: UInt64(input[1]), lastVersion: UInt64(input[1]) + 300)
    var records = _RecordCodec.Records(UnsafeRawBufferPointer(rebasing: input[2...]), header: header, limits: limits)
    while let record = try? records.next() { _ = record.payload.count }
  }
  return 0
}
