import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A raw TCP connection to a loopback server from a chosen source address (all of 127/8 is
/// loopback on Linux, so one test can be many clients), for requests that HTTP clients will not
/// send: slow heads and bodies, conflicting headers, odd methods. Every wait is bounded.
final class RawConnection {
  let socket: Int32
  /// When the connection was made.
  let opened = Date()

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Connects to 127.0.0.1:`port` from `source`; `receiveBuffer` shrinks the socket's receive
  /// buffer (a client that reads slowly).
  init(port: UInt16, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket failed") }
    if var size = receiveBuffer {
      setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    // Bounded connect and send: a full backlog or a peer that stops reading cannot hang a test.
    var time = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      close(socket)
      throw Failure(description: "cannot bind to \(source)")
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw Failure(description: "cannot connect to port \(port) from \(source)")
    }
  }

  deinit { close(socket) }

  /// Sends all of `bytes`; false when the connection is closed (or the send timed out).
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else { return false }
      sent += count
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// What arrives within `timeout` seconds: the bytes, and whether the server closed the
  /// connection (end of stream or reset). Stops early at the end, or once `until` (if given)
  /// has arrived.
  func receive(timeout: Double, until: String? = nil) -> (bytes: [UInt8], closed: Bool) {
    let end = Date().addingTimeInterval(timeout)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let marker = until.map { Array($0.utf8) }
    while true {
      let left = end.timeIntervalSinceNow
      guard left > 0 else { return (received, false) }
      var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(clamping: Int((left * 1000).rounded(.up))))
      if ready < 0 {
        if errno == EINTR { continue }
        return (received, true)
      }
      if ready == 0 { continue }
      let count = recv(socket, &buffer, buffer.count, 0)
      if count <= 0 { return (received, true) }
      received += buffer[0..<count]
      if let marker, received.firstRange(of: marker) != nil { return (received, false) }
    }
  }

  /// Waits up to `timeout` seconds for the server to close the connection, reading (and
  /// dropping) what comes; returns the seconds from the connection's start to its end, or nil
  /// when it is still open.
  func secondsUntilClosed(timeout: Double) -> Double? {
    receive(timeout: timeout).closed ? Date().timeIntervalSince(opened) : nil
  }

  /// Sends `head` and then `drip` every `interval` seconds (at most `limit` times) until the
  /// server closes the connection; returns the seconds from the connection's start to its end,
  /// or nil when it stayed open throughout.
  func trickle(head: String, drip: String, interval: Double, limit: Int) -> Double? {
    guard send(head) else { return Date().timeIntervalSince(opened) }
    for _ in 0..<limit {
      if receive(timeout: interval).closed { return Date().timeIntervalSince(opened) }
      guard send(drip) else { return Date().timeIntervalSince(opened) }
    }
    return nil
  }
}

extension RawConnection {
  /// Watches `connections` together for up to `timeout` seconds, reading (and dropping) what
  /// comes: for each, the seconds from its start to when the server closed it, or nil when it
  /// is still open.
  static func closeTimes(_ connections: [RawConnection], timeout: Double) -> [Double?] {
    var times = [Double?](repeating: nil, count: connections.count)
    let end = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while times.contains(where: { $0 == nil }), end.timeIntervalSinceNow > 0 {
      let open = connections.indices.filter { times[$0] == nil }
      var pollers = open.map { pollfd(fd: connections[$0].socket, events: Int16(POLLIN), revents: 0) }
      let ready = poll(
        &pollers, nfds_t(pollers.count), Int32(clamping: Int((end.timeIntervalSinceNow * 1000).rounded(.up))))
      guard ready > 0 else { continue }
      for (position, index) in open.enumerated() where pollers[position].revents != 0 {
        if recv(connections[index].socket, &buffer, buffer.count, 0) <= 0 {
          times[index] = Date().timeIntervalSince(connections[index].opened)
        }
      }
    }
    return times
  }

  /// One request (`Connection: close`) from `source`, read to the end within `timeout`
  /// seconds: the answer (nil when none came) and the seconds it took.
  static func request(
    port: UInt16, from source: String = "127.0.0.1", _ target: String, method: String = "GET", timeout: Double = 5
  ) throws -> (response: RawResponse?, seconds: Double) {
    let connection = try RawConnection(port: port, from: source)
    connection.send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    let (bytes, _) = connection.receive(timeout: timeout)
    return (RawResponse(bytes), Date().timeIntervalSince(connection.opened))
  }
}

/// Waits (at most `timeout` seconds, polling) for `condition`; whether it came true.
func eventually(within timeout: Double, _ condition: () -> Bool) -> Bool {
  let end = Date().addingTimeInterval(timeout)
  while !condition() {
    guard Date() < end else { return false }
    Thread.sleep(forTimeInterval: 0.01)
  }
  return true
}

/// An answer read off a raw connection: the status line's code, the header lines as sent, and
/// the body.
struct RawResponse {
  let status: Int
  let headerLines: [String]
  let body: [UInt8]

  init?(_ bytes: [UInt8]) {
    guard let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
    let lines = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
    self.status = status
    headerLines = Array(lines.dropFirst())
    body = Array(bytes[split.upperBound...])
  }

  /// The first value of header `name` (case-insensitive).
  func header(_ name: String) -> String? {
    for line in headerLines {
      guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { continue }
      return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return nil
  }
}
