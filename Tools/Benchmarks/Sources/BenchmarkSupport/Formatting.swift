/// `text` right-aligned in `width` columns.
public func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

/// `value` rounded to `digits` decimals, trailing zeros dropped (`2.5`, `1038`).
public func format(_ value: Double, digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  return digits == 0 ? String(Int(rounded)) : String(rounded)
}

/// `value` with exactly `decimals` decimals (`8.402`, `0.040`), for columns that line up.
public func fixed(_ value: Double, decimals: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int((abs(value) * Double(scale)).rounded())
  let sign = value < 0 && scaled != 0 ? "-" : ""
  guard decimals > 0 else { return sign + String(scaled) }
  let fraction = String(scaled % scale)
  return sign + String(scaled / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// `value` with thousands separators (`409,633`).
public func grouped(_ value: Double) -> String {
  guard value.isFinite else { return "\(value)" }
  let digits = String(Int(abs(value).rounded()))
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
    result.append(digit)
  }
  return (value < 0 ? "-" : "") + result
}

/// A duration for a table: `45.2 µs`, `12.3 ms`, `2.67 s`, three significant digits or more.
public func durationText(_ seconds: Double) -> String {
  guard seconds.isFinite else { return "—" }
  func digits(_ value: Double) -> Int { value >= 100 ? 0 : value >= 10 ? 1 : 2 }
  if seconds >= 1 { return fixed(seconds, decimals: digits(seconds)) + " s" }
  if seconds >= 1e-3 { return fixed(seconds * 1e3, decimals: digits(seconds * 1e3)) + " ms" }
  return fixed(seconds * 1e6, decimals: digits(seconds * 1e6)) + " µs"
}

/// Mebibytes for a table: `28 MiB`, `3,412 MiB`, `1.4 MiB`.
public func megabytesText(_ megabytes: Double) -> String {
  guard megabytes.isFinite else { return "—" }
  return (megabytes >= 10 ? grouped(megabytes) : fixed(megabytes, decimals: 1)) + " MiB"
}
