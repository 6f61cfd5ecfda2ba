import libzstd
import JournalFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the scale benchmarks and prints one line per number with its target.
func runBenchmarks(directory: String, events: Int) {
  let path = directory + "/bench.journal"
  unlink(path)
  do {
    // 1. grouped writes: commits/s and bytes/event.
    var options = JournalOptions()
    options.durability = .grouped
    var start = now()
    let writer = try JournalWriter.create(at: path, options: options)
    for n in 1...events {
      let v = UInt64(n)
      try writer.append(JournalRecord(kind: n % 50_000 == 0 ? .checkpoint : .commit, version: v, payload: eventPayload(v)))
    }
    try writer.close()
    let writeSeconds = now() - start
    var info = stat()
    stat(path, &info)
    let size = Double(info.st_size)
    say("grouped write: \(events) events in \(fmt(writeSeconds, 2)) s = \(fmt(Double(events) / writeSeconds, 0)) commits/s (target >= 100000)")
    say("size: \(fmt(size / Double(events), 2)) bytes/event (target <= 12), \(fmt(size / 1e6, 1)) MB")

    // 2. open + full replay.
    start = now()
    let reader = try JournalReader.open(at: path)
    let openSeconds = now() - start
    var iterator = reader.makeIterator()
    var count = 0
    var checksum = 0
    try iterator.forEachRemaining { _, _, _, payload in
      count += 1
      checksum &+= payload.count
    }
    let replaySeconds = now() - start
    say("open: \(fmt(openSeconds * 1000, 1)) ms (target < 200 ms), \(reader.frames.count) frames")
    say("open + full replay: \(fmt(replaySeconds, 2)) s = \(fmt(Double(count) / replaySeconds, 0)) events/s (target >= 1500000)")

    // zstd -d of the same compressed bytes (the chunk payloads concatenated = valid zstd frames).
    let zstdPath = directory + "/bench.zst"
    let fs = POSIXFileSystem()
    let file = try fs.open(path, mode: .read)
    let all = try file.read(at: 0, count: Int(try file.size()))
    file.close()
    var stream: [UInt8] = []
    stream.reserveCapacity(all.count)
    var offset = 64
    while offset + 48 <= all.count {
      let length = all.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)) }
      stream += all[(offset + 48)..<(offset + 48 + length)]
      offset += 48 + length
    }
    unlink(zstdPath)
    let out = try fs.open(zstdPath, mode: .createNew)
    try out.write(stream, at: 0)
    out.close()
    start = now()
    let status = system("zstd -q -d -c \(zstdPath) > /dev/null")
    let zstdSeconds = now() - start
    say("zstd -d of the same \(fmt(Double(stream.count) / 1e6, 1)) MB: \(fmt(zstdSeconds, 2)) s (exit \(status)); journal open+replay / zstd -d time ratio = \(fmt(replaySeconds / zstdSeconds, 2))")
    unlink(zstdPath)

    // 3. time travel to random versions on an opened journal: nearest checkpoint + decode onward.
    var worst = 0.0
    var total = 0.0
    var rng = SystemRandomNumberGenerator()
    let trials = 200
    let opened = try JournalReader.open(at: path)
    for _ in 0..<trials {
      let target = UInt64.random(in: 1...UInt64(events), using: &rng)
      start = now()
      var travel = opened.records(fromCheckpointAtOrBefore: target)
      var reached = false
      while let record = try travel.next() {
        if record.version >= target {
          reached = true
          break
        }
      }
      let elapsed = now() - start
      guard reached else { fail("time travel did not reach \(target)") }
      worst = max(worst, elapsed)
      total += elapsed
    }
    say("time travel after open (nearest checkpoint, decode to version; checkpoint every 50000 events): avg \(fmt(total / Double(trials) * 1000, 2)) ms, worst \(fmt(worst * 1000, 2)) ms over \(trials) random versions (target < 20 ms)")
    unlink(path)

    // 4. strict commit latency vs bare write + fdatasync of the same bytes, interleaved.
    var strictOptions = JournalOptions()
    strictOptions.durability = .strict
    let strictWriter = try JournalWriter.create(at: path, options: strictOptions)
    let barePath = directory + "/bench.bare"
    unlink(barePath)
    let bare = try fs.open(barePath, mode: .createNew)
    var bareOffset: Int64 = 0
    var strictTimes: [Double] = []
    var bareTimes: [Double] = []
    var lastSize: Int64 = 64
    for n in 1...1000 {
      let v = UInt64(n)
      start = now()
      try strictWriter.append(JournalRecord(kind: .commit, version: v, payload: eventPayload(v)))
      strictTimes.append(now() - start)
      stat(path, &info)
      let chunkBytes = [UInt8](repeating: UInt8(n & 0xFF), count: Int(Int64(info.st_size) - lastSize))
      lastSize = Int64(info.st_size)
      start = now()
      try bare.write(chunkBytes, at: bareOffset)
      try bare.sync(dataOnly: true)
      bareTimes.append(now() - start)
      bareOffset += Int64(chunkBytes.count)
    }
    try strictWriter.close()
    bare.close()
    strictTimes.sort()
    bareTimes.sort()
    let strictMedian = strictTimes[strictTimes.count / 2]
    let bareMedian = bareTimes[bareTimes.count / 2]
    say("strict commit median \(fmt(strictMedian * 1e6, 1)) us vs bare write+fdatasync \(fmt(bareMedian * 1e6, 1)) us: ratio \(fmt(strictMedian / bareMedian, 2)) (target <= 1.3)")
    unlink(path)
    unlink(barePath)
    _ = checksum
  } catch {
    fail("\(error)")
  }
}

/// Fixed-point formatting without Foundation.
func fmt(_ value: Double, _ digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let scaled = (value * scale).rounded()
  guard digits > 0 else { return String(Int64(scaled)) }
  let whole = Int64(scaled / scale)
  let fraction = Int64(abs(scaled) - Double(abs(whole)) * scale)
  var text = String(fraction)
  while text.count < digits { text = "0" + text }
  return (value < 0 && whole == 0 ? "-" : "") + String(whole) + "." + text
}
