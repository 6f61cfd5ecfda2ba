import ListState

/// Value tags. Small integers, early intern references and early shapes fit in the tag byte.
@usableFromInline
enum _ValueTag {
  @usableFromInline static let null: UInt8 = 0x00
  @usableFromInline static let `false`: UInt8 = 0x01
  @usableFromInline static let `true`: UInt8 = 0x02
  /// "The identifier of the element this content belongs to."
  @usableFromInline static let elementID: UInt8 = 0x03
  @usableFromInline static let positiveInt: UInt8 = 0x04
  @usableFromInline static let negativeInt: UInt8 = 0x05
  @usableFromInline static let double: UInt8 = 0x06
  @usableFromInline static let newString: UInt8 = 0x07
  @usableFromInline static let stringRef: UInt8 = 0x08
  @usableFromInline static let array: UInt8 = 0x09
  @usableFromInline static let newShape: UInt8 = 0x0A
  @usableFromInline static let shapeRef: UInt8 = 0x0B
  @usableFromInline static let rawString: UInt8 = 0x0C
  @usableFromInline static let inlineStringRef: UInt8 = 0x20  // 0x20...0x3F: string refs 0...31
  @usableFromInline static let inlineInt: UInt8 = 0x40  // 0x40...0x7F: integers 0...63
  @usableFromInline static let inlineShapeRef: UInt8 = 0x80  // 0x80...0xFF: shapes 0...127
}

extension HistoryCodec {
  // MARK: Writing

  /// Writes a value; with `marker`, a top-level value or object member equal to it becomes the
  /// one-byte element-identifier marker.
  @inlinable
  mutating func writeValue(_ value: JournalValue, marker: JournalValue?, depth: Int = 0, into writer: inout _ByteWriter)
    throws(HistoryCodecError)
  {
    if let marker, value == marker {
      writer.byte(_ValueTag.elementID)
      return
    }
    switch value {
    case .null: writer.byte(_ValueTag.null)
    case .bool(let flag): writer.byte(flag ? _ValueTag.true : _ValueTag.false)
    case .int(let number):
      if number >= 0 && number < 64 {
        writer.byte(_ValueTag.inlineInt | UInt8(number))
      } else if number >= 0 {
        writer.byte(_ValueTag.positiveInt)
        writer.varint(UInt64(number))
      } else {
        writer.byte(_ValueTag.negativeInt)
        writer.varint(UInt64(-(number + 1)))
      }
    case .double(let number):
      writer.byte(_ValueTag.double)
      let bits = number.bitPattern
      for shift in stride(from: 0, to: 64, by: 8) { writer.byte(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    case .string(let text):
      // Since 1.1 longer strings inside contents are not interned: they are mostly unique text
      // (titles, notes) that an update's remembered content no longer needs to refer back to,
      // so interning them only grows the tables and costs a hash lookup each (zstd still
      // catches a repeat). Short ones — states, tags — keep their one-byte references.
      if depth > 0, writesCompactForms, text.utf8.count > Self.internedContentStringLimit {
        writeRawString(text, into: &writer)
      } else {
        writeString(text, into: &writer)
      }
    case .array(let values):
      guard depth < Self.maximumValueDepth else { throw .unencodable("value nests deeper than \(Self.maximumValueDepth)") }
      writer.byte(_ValueTag.array)
      writer.varint(values.count)
      for element in values { try writeValue(element, marker: nil, depth: depth + 1, into: &writer) }
    case .object(let members):
      guard depth < Self.maximumValueDepth else { throw .unencodable("value nests deeper than \(Self.maximumValueDepth)") }
      if let shape = knownShape(of: members) {
        if shape < 128 {
          writer.byte(_ValueTag.inlineShapeRef | UInt8(shape))
        } else {
          writer.byte(_ValueTag.shapeRef)
          writer.varint(shape)
        }
      } else {
        let keys = members.map(\.key)
        encoderTables.shapes[keys] = encoderTables.shapeList.count
        encoderTables.lastShape = encoderTables.shapeList.count
        encoderTables.shapeList.append(keys)
        writer.byte(_ValueTag.newShape)
        writer.varint(keys.count)
        for key in keys { writeString(key, into: &writer) }
      }
      // The element-id marker also applies to direct members (`{"id": …, …}` contents).
      let memberMarker = depth == 0 ? marker : nil
      for member in members { try writeValue(member.value, marker: memberMarker, depth: depth + 1, into: &writer) }
    }
  }

  /// The intern index of the members' key list, if it has one. Elements of one type all have
  /// the same shape, so the last shape used is compared first, key by key (no key array built,
  /// no array hashed).
  @inlinable
  mutating func knownShape(of members: [JournalValue.Member]) -> Int? {
    if let last = encoderTables.lastShape {
      let keys = encoderTables.shapeList[last]
      if keys.count == members.count, zip(keys, members).allSatisfy({ $0 == $1.key }) { return last }
    }
    guard let shape = encoderTables.shapes[members.map(\.key)] else { return nil }
    encoderTables.lastShape = shape
    return shape
  }

  /// A string that is not interned (any format).
  @inlinable
  func writeRawString(_ text: String, into writer: inout _ByteWriter) {
    writer.byte(_ValueTag.rawString)
    writer.varint(text.utf8.count)
    writer.raw(text.utf8)
  }

  @inlinable
  mutating func writeString(_ text: String, into writer: inout _ByteWriter) {
    let utf8 = text.utf8
    guard utf8.count <= Self.internedStringLimit else { return writeRawString(text, into: &writer) }
    let hash = text.hashValue
    if let index = encoderTables.strings.firstIndex(of: text, hash: hash) {
      if index < 32 {
        writer.byte(_ValueTag.inlineStringRef | UInt8(index))
      } else {
        writer.byte(_ValueTag.stringRef)
        writer.varint(index)
      }
      return
    }
    encoderTables.strings.append(text, hash: hash)
    writer.byte(_ValueTag.newString)
    writer.varint(utf8.count)
    writer.raw(utf8)
  }

  // MARK: Reading

  /// Reads a value; the element-identifier marker becomes `marker` (an error where there is none).
  @inlinable
  mutating func readValue(_ reader: inout _ByteReader, marker: JournalValue?, depth: Int = 0) throws(HistoryCodecError)
    -> JournalValue
  {
    let start = reader.offset
    let tag = try reader.byte()
    switch tag {
    case _ValueTag.null: return .null
    case _ValueTag.false: return .bool(false)
    case _ValueTag.true: return .bool(true)
    case _ValueTag.elementID:
      guard let marker else { throw reader.fail("element-identifier marker outside an element", at: start) }
      return marker
    case _ValueTag.positiveInt:
      let raw = try reader.varint()
      guard raw <= UInt64(Int64.max) else { throw reader.fail("integer out of range", at: start) }
      return .int(Int64(raw))
    case _ValueTag.negativeInt:
      let raw = try reader.varint()
      guard raw <= UInt64(Int64.max) else { throw reader.fail("integer out of range", at: start) }
      return .int(-Int64(raw) - 1)
    case _ValueTag.double:
      var bits: UInt64 = 0
      for shift in stride(from: 0, to: 64, by: 8) { bits |= UInt64(try reader.byte()) << UInt64(shift) }
      return .double(Double(bitPattern: bits))
    case _ValueTag.newString, _ValueTag.rawString:
      let length = try reader.count("string length")
      let bytes = try reader.take(length)
      guard let text = Self.string(utf8: bytes) else { throw reader.fail("invalid UTF-8 in string", at: start) }
      if tag == _ValueTag.newString { decoderTables.strings.append(text) }
      return .string(text)
    case _ValueTag.stringRef:
      return .string(try string(at: reader.varint(), reader: reader, start: start))
    case _ValueTag.inlineStringRef..<_ValueTag.inlineInt:
      return .string(try string(at: UInt64(tag & 0x1F), reader: reader, start: start))
    case _ValueTag.inlineInt..<_ValueTag.inlineShapeRef:
      return .int(Int64(tag & 0x3F))
    case _ValueTag.array:
      guard depth < Self.maximumValueDepth else { throw reader.fail("value nests deeper than \(Self.maximumValueDepth)", at: start) }
      let count = try reader.count("array")
      var values: [JournalValue] = []
      values.reserveCapacity(count)
      for _ in 0..<count { values.append(try readValue(&reader, marker: nil, depth: depth + 1)) }
      return .array(values)
    case _ValueTag.newShape:
      guard depth < Self.maximumValueDepth else { throw reader.fail("value nests deeper than \(Self.maximumValueDepth)", at: start) }
      let count = try reader.count("object key", minimumBytes: 2)
      var keys: [String] = []
      keys.reserveCapacity(count)
      for _ in 0..<count {
        let keyStart = reader.offset
        guard case .string(let key) = try readValue(&reader, marker: nil, depth: Self.maximumValueDepth) else {
          throw reader.fail("object key is not a string", at: keyStart)
        }
        keys.append(key)
      }
      decoderTables.shapes.append(keys)
      return try readMembers(keys, &reader, marker: marker, depth: depth)
    case _ValueTag.shapeRef:
      let index = try reader.varint()
      return try readMembers(shape(at: index, reader: reader, start: start), &reader, marker: marker, depth: depth)
    case _ValueTag.inlineShapeRef...UInt8.max:
      guard depth < Self.maximumValueDepth else { throw reader.fail("value nests deeper than \(Self.maximumValueDepth)", at: start) }
      return try readMembers(
        shape(at: UInt64(tag & 0x7F), reader: reader, start: start), &reader, marker: marker, depth: depth)
    default:
      throw reader.fail("unknown value tag 0x\(String(tag, radix: 16))", at: start)
    }
  }

  @inlinable
  func string(at index: UInt64, reader: _ByteReader, start: Int) throws(HistoryCodecError) -> String {
    guard index < UInt64(decoderTables.strings.count) else { throw reader.fail("string reference \(index) is not defined", at: start) }
    return decoderTables.strings[Int(index)]
  }

  @inlinable
  func shape(at index: UInt64, reader: _ByteReader, start: Int) throws(HistoryCodecError) -> [String] {
    guard index < UInt64(decoderTables.shapes.count) else { throw reader.fail("object shape \(index) is not defined", at: start) }
    return decoderTables.shapes[Int(index)]
  }

  @inlinable
  mutating func readMembers(_ keys: [String], _ reader: inout _ByteReader, marker: JournalValue?, depth: Int)
    throws(HistoryCodecError) -> JournalValue
  {
    guard keys.count <= reader.remaining else { throw reader.fail("object of \(keys.count) members exceeds the remaining bytes") }
    let memberMarker = depth == 0 ? marker : nil
    var members: [JournalValue.Member] = []
    members.reserveCapacity(keys.count)
    for key in keys { members.append(.init(key, try readValue(&reader, marker: memberMarker, depth: depth + 1))) }
    return .object(members)
  }
}

extension HistoryCodec {
  /// The string of `bytes`, nil when they are not valid UTF-8.
  ///
  /// ASCII bytes (most identifiers and short texts) are always valid: they are copied into the
  /// string as they are. The generic `String(validating:as:)` (and `String(decoding:as:)`, which
  /// goes through the same generic validation) spends most of its time per string in metadata
  /// lookups, which a replay would pay for every string; it stays for non-ASCII text.
  @inlinable
  static func string(utf8 bytes: ArraySlice<UInt8>) -> String? {
    bytes.withUnsafeBufferPointer { buffer in
      var high: UInt8 = 0
      for byte in buffer { high |= byte }
      guard high < 0x80, let base = buffer.baseAddress else { return String(validating: buffer, as: UTF8.self) }
      return String(unsafeUninitializedCapacity: buffer.count) { target in
        target.baseAddress!.initialize(from: base, count: buffer.count)
        return buffer.count
      }
    }
  }
}
