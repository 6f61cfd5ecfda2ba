import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to a loopback port, to send what no HTTP client would: nothing, half a
/// request head, a TLS hello, a huge header.
final class RawTCP: @unchecked Sendable {
  let descriptor: Int32

  init(port: Int) throws {
    #if canImport(Glibc)
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else {
      close(descriptor)
      throw Failure("connect: errno \(errno)")
    }
  }

  private var closed = false

  deinit { shutdown() }

  /// Closes the socket (once).
  func shutdown() {
    guard !closed else { return }
    closed = true
    close(descriptor)
  }

  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Glibc_send(descriptor, $0.baseAddress, $0.count) }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  func send(_ text: String) { send(Array(text.utf8)) }

  /// This end's port, as the server logs the peer (`127.0.0.1:PORT`).
  var localPort: Int {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Sends one masked binary WebSocket frame (clients must mask, RFC 6455 §5.3).
  func sendBinaryFrame(_ payload: [UInt8]) {
    var header: [UInt8] = [0x82]
    switch payload.count {
    case ..<126: header.append(0x80 | UInt8(payload.count))
    case ..<65_536: header += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default: header += [0x80 | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
    }
    let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    send(header + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
  }

  /// Everything the server sends until it closes the connection, or nil when it has not closed
  /// it within `seconds`.
  func readUntilClosed(within seconds: Double) -> [UInt8]? {
    let deadline = Date().addingTimeInterval(seconds)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while Date() < deadline {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, 100)
      guard ready > 0 else { continue }
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return received }
      received += buffer[0..<count]
    }
    return nil
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}

private func Glibc_send(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
  #if canImport(Glibc)
  Glibc.send(descriptor, pointer, count, Int32(MSG_NOSIGNAL))
  #else
  Darwin.send(descriptor, pointer, count, 0)
  #endif
}

/// The peak resident memory of process `pid` in bytes (`VmHWM`), nil where /proc is missing.
func peakResidentBytes(pid: Int32) -> Int? {
  guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
  for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
    let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    return digits.map { $0 * 1024 }
  }
  return nil
}
