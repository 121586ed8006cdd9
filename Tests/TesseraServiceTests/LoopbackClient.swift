import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 client for tests: one request per connection to 127.0.0.1, read to the
/// end (the server closes), with a receive timeout so a test never hangs.
struct LoopbackResponse {
  let status: Int
  let headers: [String: String]
  let body: [UInt8]

  func header(_ name: String) -> String? { headers[name.lowercased()] }
}

enum LoopbackClient {
  /// Sends a request and closes the connection at once, without reading the answer (a client
  /// that gives up).
  static func abandon(port: UInt16, _ target: String) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return }
    let bytes = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    /// Whether the connection itself was refused (nothing was sent).
    var refused = false
  }

  static func request(
    port: UInt16, _ target: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8] = [],
    timeout: Int = 60
  ) throws -> LoopbackResponse {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket failed") }
    defer { close(socket) }
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Failure(description: "cannot connect to port \(port)", refused: true) }
    // A Host header given replaces the default one.
    var head =
      "\(method) \(target) HTTP/1.1\r\nHost: \(headers["Host"] ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
    for (name, value) in headers where name != "Host" { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    head += "\r\n"
    let bytes = Array(head.utf8) + body
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else { throw Failure(description: "send failed") }
      sent += count
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count == 0 { break }
      guard count > 0 else { throw Failure(description: "no answer within \(timeout) s") }
      received += buffer[0..<count]
    }
    guard let split = received.firstRange(of: Array("\r\n\r\n".utf8)) else {
      throw Failure(description: "no HTTP head in \(received.count) bytes")
    }
    let lines = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure(description: "bad status line '\(lines[0])'")
    }
    var parsed: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return LoopbackResponse(status: status, headers: parsed, body: Array(received[split.upperBound...]))
  }
}

/// A TCP server on 127.0.0.1 that accepts connections and never answers (a tile source that
/// hangs), until it is closed.
final class SilentServer: @unchecked Sendable {
  let port: UInt16
  private let socket: Int32
  private var accepted: [Int32] = []
  private let lock = NSLock()

  init() throws {
    let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
        guard bind(listener, pointer, length) == 0, listen(listener, 64) == 0 else { return -1 }
        return getsockname(listener, pointer, &length)
      }
    }
    guard bound == 0 else { throw LoopbackClient.Failure(description: "cannot listen") }
    port = UInt16(bigEndian: address.sin_port)
    socket = listener
    Thread.detachNewThread { [self] in
      while true {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        let kept = lock.withLock { () -> Bool in
          guard !closed else { return false }
          accepted.append(connection)
          return true
        }
        guard kept else {
          Glibc.close(connection)
          return
        }
      }
    }
  }

  private var closed = false

  /// Closes the listener and the connections taken. Once only: closing a descriptor twice
  /// would close whatever another test opened under the same number since.
  func close() {
    lock.withLock {
      guard !closed else { return }
      closed = true
      shutdown(socket, Int32(SHUT_RDWR))
      Glibc.close(socket)
      for connection in accepted { Glibc.close(connection) }
      accepted = []
    }
  }
}
