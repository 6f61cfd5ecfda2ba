#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The size of the file at `path` in bytes, or nil when there is none.
public func fileSize(_ path: String) -> Int? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return Int(info.st_size)
}

/// Removes the file at `path` if there is one.
public func removeFile(_ path: String) {
  unlink(path)
}

/// Creates the directory at `path` and its missing parents.
public func makeDirectories(_ path: String) {
  var prefix = path.hasPrefix("/") ? "/" : ""
  for component in path.split(separator: "/") {
    prefix += component + "/"
    mkdir(prefix, 0o755)
  }
}

/// Copies the file at `source` to `destination` (replacing it), byte for byte.
public func copyFile(_ source: String, to destination: String) {
  let input = open(source, O_RDONLY)
  precondition(input >= 0, "cannot read \(source)")
  defer { close(input) }
  let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  precondition(output >= 0, "cannot write \(destination)")
  defer { close(output) }
  let size = 1 << 20
  let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
  defer { buffer.deallocate() }
  while true {
    let count = read(input, buffer, size)
    precondition(count >= 0, "cannot read \(source)")
    if count == 0 { return }
    var offset = 0
    while offset < count {
      let written = write(output, buffer + offset, count - offset)
      precondition(written > 0, "cannot write \(destination)")
      offset += written
    }
  }
}

/// The contents of the text file at `path`, or nil when it cannot be read.
public func readTextFile(_ path: String) -> String? {
  guard let file = fopen(path, "r") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes.append(contentsOf: buffer[..<count])
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// Writes `text` to the file at `path`, replacing it.
public func writeTextFile(_ path: String, _ text: String) {
  guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
  defer { fclose(file) }
  fputs(text, file)
}

/// Reads the text file at `path` line by line (without the line feeds), with one buffer: for
/// inputs too large to hold as a whole.
public func forEachLine(ofFile path: String, _ body: (Substring) throws -> Void) rethrows {
  guard let file = fopen(path, "r") else { fatalError("cannot read \(path)") }
  defer { fclose(file) }
  var line: UnsafeMutablePointer<CChar>? = nil
  var capacity = 0
  defer { free(line) }
  while true {
    let length = getline(&line, &capacity, file)
    if length < 0 { return }
    let text = line!.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    try body(text.hasSuffix("\n") ? text.dropLast() : text[...])
  }
}
