import ListHistory
import JournalFormat
import libzstd

/// Commits on the wire: what one replica sends another, compressed and checksummed so that a
/// damaged batch is refused whole.
///
/// Layout: magic `LJRB`, layout version 1, the list identifier (8 bytes), the uncompressed
/// length (4 bytes), a CRC-32C of everything after it, then a zstd frame of
/// `HistoryCodec.encode(replicaCommits:)`'s bytes.
///
/// ```swift
/// let batch = try phone.batch(since: laptop.versionVector, codec: codec)
/// send(batch.bytes)
/// try laptop.receive(ReplicaBatch(bytes: received), codec: codec)
/// ```
public struct ReplicaBatch: Sendable, Hashable {
  /// The batch's bytes.
  public var bytes: [UInt8]

  /// A batch from bytes received; checked when decoded.
  @inlinable
  public init(bytes: [UInt8]) { self.bytes = bytes }

  @inlinable
  static var magic: [UInt8] { Array("LJRB".utf8) }
  @inlinable
  static var headerSize: Int { 21 }
  /// The largest decompressed batch accepted (bounds memory on hostile input).
  @inlinable
  public static var maximumDecodedBytes: Int { 1 << 30 }

  /// Encodes commits of list `listID`.
  @inlinable
  public init<Section, Item>(commits: [ReplicaCommit<Section, Item>], listID: UInt64, codec: HistoryCodec<Section, Item>)
    throws(ReplicaError)
  {
    var codec = codec
    let payload: [UInt8]
    do { payload = try codec.encode(replicaCommits: commits) } catch {
      throw .damagedBatch(offset: 0, reason: "cannot encode: \(error)")
    }
    guard payload.count < Self.maximumDecodedBytes else {
      throw .damagedBatch(offset: 0, reason: "\(payload.count) bytes exceed the batch limit")
    }
    let compressed = _BatchCompression.compress(payload)
    var bytes = Self.magic
    bytes.append(1)
    withUnsafeBytes(of: listID.littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt32(payload.count).littleEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: _journalCRC32C(compressed).littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: compressed)
    self.bytes = bytes
  }

  /// The list identifier and the commits; throws ``ReplicaError/damagedBatch(offset:reason:)``
  /// naming the byte offset of the first problem.
  @inlinable
  public func commits<Section, Item>(
    codec: HistoryCodec<Section, Item>, limits: ReplicaBatchLimits = ReplicaBatchLimits()
  ) throws(ReplicaError) -> (listID: UInt64, commits: [ReplicaCommit<Section, Item>]) {
    guard bytes.count >= Self.headerSize, Array(bytes[0..<4]) == Self.magic else {
      throw .damagedBatch(offset: 0, reason: "not a replica batch")
    }
    guard bytes[4] == 1 else { throw .damagedBatch(offset: 4, reason: "batch layout \(bytes[4]) is newer than 1") }
    func load(_ at: Int, _ count: Int) -> UInt64 {
      var value: UInt64 = 0
      for index in 0..<count { value |= UInt64(bytes[at + index]) << UInt64(8 * index) }
      return value
    }
    let listID = load(5, 8)
    let length = Int(load(13, 4))
    let checksum = UInt32(load(17, 4))
    // The declared size is checked before the buffer is made: it is the attacker's number.
    guard length <= min(limits.maxDecodedBytes, Self.maximumDecodedBytes - 1) else {
      throw .limitExceeded(
        "the batch declares \(length) decompressed bytes, more than the limit of \(min(limits.maxDecodedBytes, Self.maximumDecodedBytes - 1))")
    }
    let compressed = Array(bytes[Self.headerSize...])
    guard _journalCRC32C(compressed) == checksum else {
      throw .damagedBatch(offset: Self.headerSize, reason: "checksum mismatch")
    }
    guard _BatchCompression.declaredSize(compressed) == length else {
      throw .damagedBatch(offset: Self.headerSize, reason: "the zstd frame does not declare the batch's \(length) bytes")
    }
    guard let payload = _BatchCompression.decompress(compressed, length: length) else {
      throw .damagedBatch(offset: Self.headerSize, reason: "the compressed commits do not decode to \(length) bytes")
    }
    var codec = codec
    let commits: [ReplicaCommit<Section, Item>]
    do {
      commits = try codec.decodeReplicaCommits(payload)
    } catch {
      throw .damagedBatch(offset: Self.headerSize, reason: "commits: \(error)")
    }
    guard commits.count <= limits.maxCommits else {
      throw .limitExceeded("a batch of \(commits.count) commits exceeds the limit of \(limits.maxCommits)")
    }
    return (listID, commits)
  }
}

@usableFromInline
enum _BatchCompression {
  @usableFromInline
  static func compress(_ bytes: [UInt8]) -> [UInt8] {
    let bound = ZSTD_compressBound(bytes.count)
    var output = [UInt8](repeating: 0, count: bound)
    let written = output.withUnsafeMutableBytes { out in
      bytes.withUnsafeBytes { input in ZSTD_compress(out.baseAddress, bound, input.baseAddress, input.count, 3) }
    }
    precondition(ZSTD_isError(written) == 0, "zstd failed to compress a batch")
    output.removeSubrange(written...)
    return output
  }

  /// The content size a zstd frame's header declares; nil when it declares none or is not a frame.
  @usableFromInline
  static func declaredSize(_ bytes: [UInt8]) -> Int? {
    let size = bytes.withUnsafeBytes { input in ZSTD_getFrameContentSize(input.baseAddress, input.count) }
    // ZSTD_CONTENTSIZE_UNKNOWN and ZSTD_CONTENTSIZE_ERROR are the two highest values.
    guard size < UInt64.max - 1, size <= UInt64(Int.max) else { return nil }
    return Int(size)
  }

  @usableFromInline
  static func decompress(_ bytes: [UInt8], length: Int) -> [UInt8]? {
    var output = [UInt8](repeating: 0, count: max(length, 1))
    let written = output.withUnsafeMutableBytes { out in
      bytes.withUnsafeBytes { input in ZSTD_decompress(out.baseAddress, length, input.baseAddress, input.count) }
    }
    guard ZSTD_isError(written) == 0, written == length else { return nil }
    output.removeSubrange(length...)
    return output
  }
}
