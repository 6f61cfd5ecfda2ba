/// Standard base64 (RFC 4648, with padding), for the payloads of JSON Lines exports.
@usableFromInline
enum _Base64 {
  /// The 6-bit value of each byte; 0xFF for bytes outside the alphabet.
  @usableFromInline static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    return table
  }()

  /// The bytes `text` encodes; nil unless it is a whole number of padded quartets of the
  /// standard alphabet.
  @inlinable
  static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard text.count % 4 == 0 else { return nil }
    guard !text.isEmpty else { return [] }
    var padding = 0
    if text[text.count - 1] == UInt8(ascii: "=") { padding += 1 }
    if text[text.count - 2] == UInt8(ascii: "=") { padding += 1 }
    let count = text.count / 4 * 3 - padding
    return values.withUnsafeBufferPointer { table -> [UInt8]? in
      var failed = false
      let result = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
        var o = 0
        var i = 0
        while i < text.count {
          let last = i + 4 == text.count
          let a = table[Int(text[i])], b = table[Int(text[i + 1])]
          let cByte = text[i + 2], dByte = text[i + 3]
          let c = last && cByte == UInt8(ascii: "=") && padding == 2 ? 0 : table[Int(cByte)]
          let d = last && dByte == UInt8(ascii: "=") && padding >= 1 ? 0 : table[Int(dByte)]
          if (a | b | c | d) & 0xC0 != 0 {
            failed = true
            break
          }
          let triple = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          out[o] = UInt8(truncatingIfNeeded: triple >> 16)
          if o + 1 < count { out[o + 1] = UInt8(truncatingIfNeeded: triple >> 8) }
          if o + 2 < count { out[o + 2] = UInt8(truncatingIfNeeded: triple) }
          o += 3
          i += 4
        }
        initialized = failed ? 0 : count
      }
      return failed ? nil : result
    }
  }

  /// Appends the base64 text of `bytes` to `out`.
  @inlinable
  static func encode(_ bytes: [UInt8], into out: inout [UInt8]) {
    let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    let symbols = alphabet.utf8Start
    out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let triple = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      out.append(symbols[Int(triple >> 18 & 63)])
      out.append(symbols[Int(triple >> 12 & 63)])
      out.append(symbols[Int(triple >> 6 & 63)])
      out.append(symbols[Int(triple & 63)])
      index += 3
    }
    let rest = bytes.count - index
    guard rest > 0 else { return }
    let triple = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
    out.append(symbols[Int(triple >> 18 & 63)])
    out.append(symbols[Int(triple >> 12 & 63)])
    out.append(rest == 2 ? symbols[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
    out.append(UInt8(ascii: "="))
  }
}
