import CTesseraServer
import Foundation
import TesseraJSON
import TesseraNumbers

/// One HTTP request as the server received it.
public struct HTTPRequest: @unchecked Sendable {
  public let method: String
  /// The path, percent-decoded by the server, without the query.
  public let path: String
  /// Query arguments, decoded, in order (repeated keys kept).
  public let arguments: [(key: String, value: String)]
  /// Characters of the request target (path and query) as sent.
  public let targetLength: Int
  /// The request target as sent (not decoded).
  public let rawTarget: String
  public let body: [UInt8]
  /// Whether the body was larger than the server takes (and was dropped).
  public let bodyTooLarge: Bool
  /// The client's address.
  public let client: String
  /// Why the server refused the request from its head alone (its body was not read); the
  /// handler answers ``HTTPRefusal/response`` at once.
  public var refusal: HTTPRefusal? = nil
  /// The server's request, or nil for a request made in memory (parser tests), which has no
  /// headers and cannot be answered.
  let handle: OpaquePointer?
  /// The headers of a request made in memory (a server's request reads its own through
  /// `handle`).
  var memoryHeaders: [(name: String, value: String)] = []

  /// A request header (case-insensitive name), or nil.
  public func header(_ name: String) -> String? {
    guard let handle else { return memoryHeaders.first { $0.name.lowercased() == name.lowercased() }?.value }
    return tessera_request_header(handle, name).map { String(cString: $0) }
  }

  /// All values of query argument `key`, in order.
  public func values(_ key: String) -> [String] { arguments.filter { $0.key == key }.map(\.value) }

  /// The first value of query argument `key`.
  public func value(_ key: String) -> String? { arguments.first { $0.key == key }?.value }
}

/// An answer: status, headers and body.
public struct HTTPResponse: Sendable {
  public var status: Int
  public var headers: [(String, String)]
  public var body: [UInt8]

  public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON answer (200).
  static func json(_ value: JSONValue) -> HTTPResponse {
    HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(value.serialized().utf8))
  }

  /// A plain-text answer of one line.
  public static func text(_ status: Int, _ message: String, headers: [(String, String)] = []) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
      body: Array((message + "\n").utf8))
  }
}

/// Why a request was refused from its head alone, before any body was read; the handler must
/// answer it at once (``response``), and its connection closes after.
public enum HTTPRefusal: Sendable {
  /// Several Content-Length headers, Content-Length with Transfer-Encoding, or a
  /// Transfer-Encoding other than `chunked`: the body's length is ambiguous.
  case conflictingLength
  /// `Expect: 100-continue` with a Content-Length over the body limit.
  case bodyTooLarge(limit: Int)
  /// A request on a reserve connection for a path the reserve does not serve.
  case reserveOnly

  init?(code: Int32, maxBody: Int) {
    switch UInt32(bitPattern: code) {
    case TESSERA_REFUSAL_FRAMING.rawValue: self = .conflictingLength
    case TESSERA_REFUSAL_TOO_LARGE.rawValue: self = .bodyTooLarge(limit: maxBody)
    case TESSERA_REFUSAL_RESERVE.rawValue: self = .reserveOnly
    default: return nil
    }
  }

  /// The answer: 400, 413, or 503 with `Retry-After`.
  public var response: HTTPResponse {
    switch self {
    case .conflictingLength:
      return .text(400, "the request's Content-Length and Transfer-Encoding headers are ambiguous")
    case .bodyTooLarge(let limit):
      return .text(413, "the body is larger than \(limit) bytes")
    case .reserveOnly:
      return .text(503, "the server is busy; try again shortly", headers: [("Retry-After", "1")])
    }
  }
}

/// How an ``HTTPServer`` listens and what it lets a client hold.
public struct HTTPServerOptions: Sendable {
  /// An IPv4 or IPv6 address, and a port (0: any free one).
  public var host: String
  public var port: UInt16
  /// Polling threads.
  public var threads = 2
  /// Seconds a connection may stay idle (nothing received or sent).
  public var idleTimeout = 10
  /// Ordinary connections open at once, and the reserve above them: connections taken while
  /// the ordinary ones are all open serve only `reservePaths`, are closed after one answer, and
  /// must send their request within `reserveHeaderTimeout` seconds; when the reserve is full, a
  /// new connection closes the reserve one that has waited longest for its request.
  public var connectionLimit = 1024
  public var reserveConnections = 0
  public var reservePaths: [String] = []
  public var reserveHeaderTimeout = 2.0
  /// Connections open at once from one client address; 0: no cap.
  public var maxConnectionsPerClient = 0
  /// Seconds for a request's head to arrive (from the connection's start or the previous
  /// answer on it), for its body to arrive (from the end of the head) and for an answer to be
  /// sent (from when it is ready); 0: no deadline. A request waiting for its answer has none.
  public var headerTimeout = 10.0
  public var bodyTimeout = 30.0
  public var sendTimeout = 30.0
  /// Whether other sockets may listen on the same address and port (SO_REUSEPORT).
  public var reusePort = false
  /// Bytes of a request body kept; a larger one is dropped (the request says so).
  public var maxBody = 1 << 20

  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }
}

/// What an ``HTTPServer`` holds now and has cut.
public struct HTTPConnectionStats: Sendable, Equatable {
  /// Connections open: ordinary ones and reserve ones.
  public var open = 0
  public var openReserve = 0
  /// Connections in the middle of a request (receiving its body, waiting for the answer or
  /// sending it).
  public var busy = 0
  /// Connections closed at the deadline of their request's head, its body, or the answer.
  public var headDeadlines = 0
  public var bodyDeadlines = 0
  public var sendDeadlines = 0
  /// Reserve connections closed to make room for newer ones (the reserve was full and they had
  /// not sent their request).
  public var reserveEvictions = 0

  public init() {}
}

/// An HTTP server on libmicrohttpd: a request reaches `handler` once with its whole body;
/// the handler answers through ``HTTPServer/respond(_:with:)`` at once or later from any
/// thread.
public final class HTTPServer: @unchecked Sendable {
  /// The text of a NUL-terminated C character buffer.
  static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public typealias Handler = @Sendable (HTTPRequest) -> Void

  /// The C server; nil once stopped. Read and cleared under `lock` (stopping waits for the
  /// polling threads, so it runs outside the lock).
  private var server: OpaquePointer?
  private let lock = NSLock()
  private let handler: Handler
  private let maxBody: Int
  /// The port listened on.
  public private(set) var port: UInt16 = 0

  /// Starts listening on `host`:`port` (0: any free port) with `threads` polling threads;
  /// connections idle for `timeout` seconds are dropped and bodies over `maxBody` bytes refused.
  public convenience init(
    host: String, port: UInt16, threads: Int, timeout: Int, connectionLimit: Int, maxBody: Int,
    handler: @escaping Handler
  ) throws {
    var options = HTTPServerOptions(host: host, port: port)
    options.threads = threads
    options.idleTimeout = timeout
    options.connectionLimit = connectionLimit
    options.maxBody = maxBody
    try self.init(options: options, handler: handler)
  }

  /// Starts listening as `options` say; throws when the address cannot be bound (in use, not
  /// this machine's, not allowed), with the reason.
  public init(options: HTTPServerOptions, handler: @escaping Handler) throws {
    self.handler = handler
    maxBody = options.maxBody
    var error = [CChar](repeating: 0, count: 512)
    let context = Unmanaged.passUnretained(self).toOpaque()
    func milliseconds(_ seconds: Double) -> UInt32 {
      seconds > 0 ? UInt32(clamping: max(Int(clamping: (seconds * 1000).rounded()), 1)) : 0
    }
    let paths = options.reservePaths.map { strdup($0) }
    defer { paths.forEach { free($0) } }
    let started = paths.map { UnsafePointer($0) }.withUnsafeBufferPointer { reservePaths in
      options.host.withCString { host in
        var settings = tessera_server_options(
          host: host, port: options.port, threads: UInt32(clamping: max(options.threads, 1)),
          idle_timeout_seconds: UInt32(clamping: max(options.idleTimeout, 1)),
          connection_limit: UInt32(clamping: max(options.connectionLimit, 1)),
          reserve_connections: UInt32(clamping: max(options.reserveConnections, 0)),
          per_client_limit: UInt32(clamping: max(options.maxConnectionsPerClient, 0)),
          head_timeout_ms: milliseconds(options.headerTimeout), body_timeout_ms: milliseconds(options.bodyTimeout),
          send_timeout_ms: milliseconds(options.sendTimeout),
          reserve_head_timeout_ms: milliseconds(options.reserveHeaderTimeout),
          reserve_paths: reservePaths.baseAddress, reserve_path_count: reservePaths.count,
          reuse_port: options.reusePort ? 1 : 0, max_body: max(options.maxBody, 0))
        return tessera_server_start(
          &settings,
          {
            context, request, method, path, keys, values, count, targetLength, rawTarget, body, bodyLength, tooLarge,
            refusal in
            guard let context, let request else { return }
            let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
            var arguments: [(String, String)] = []
            for index in 0..<count {
              guard let key = keys?[index], let value = values?[index] else { continue }
              arguments.append((String(cString: key), String(cString: value)))
            }
            var client = [CChar](repeating: 0, count: 64)
            tessera_request_client(request, &client, client.count)
            let parsed = HTTPRequest(
              method: method.map { String(cString: $0) } ?? "GET", path: path.map { String(cString: $0) } ?? "/",
              arguments: arguments, targetLength: targetLength,
              rawTarget: rawTarget.map { String(cString: $0) } ?? "",
              body: body.map { Array(UnsafeBufferPointer(start: $0, count: bodyLength)) } ?? [],
              bodyTooLarge: tooLarge != 0, client: HTTPServer.text(client),
              refusal: HTTPRefusal(code: refusal, maxBody: server.maxBody), handle: request)
            server.handler(parsed)
          }, context, &error, error.count)
      }
    }
    guard let started else { throw HTTPServerError(reason: HTTPServer.text(error)) }
    server = started
    self.port = tessera_server_port(started)
  }

  /// What the server holds now and has cut (zero once stopped).
  public var connectionStats: HTTPConnectionStats {
    var raw = tessera_server_stats()
    let running = lock.withLock { () -> Bool in
      guard let server else { return false }
      tessera_server_get_stats(server, &raw)
      return true
    }
    guard running else { return HTTPConnectionStats() }
    var stats = HTTPConnectionStats()
    stats.open = Int(raw.open)
    stats.openReserve = Int(raw.open_reserve)
    stats.busy = Int(raw.busy)
    stats.headDeadlines = Int(clamping: raw.head_deadlines)
    stats.bodyDeadlines = Int(clamping: raw.body_deadlines)
    stats.sendDeadlines = Int(clamping: raw.send_deadlines)
    stats.reserveEvictions = Int(clamping: raw.reserve_evictions)
    return stats
  }

  /// Answers `request` (once; later calls are ignored). HEAD requests get the headers only.
  /// Every header is cleaned here (``cleanHeader(name:value:)``): a value never carries a line
  /// break or other control character into the answer, and no header is dropped for one.
  public static func respond(_ request: HTTPRequest, with response: HTTPResponse) {
    guard let handle = request.handle else { return }
    let headers = response.headers.compactMap(cleanHeader)
    let names = headers.map { strdup($0.0) }
    let values = headers.map { strdup($0.1) }
    defer {
      names.forEach { free($0) }
      values.forEach { free($0) }
    }
    let namePointers = names.map { UnsafePointer($0) }
    let valuePointers = values.map { UnsafePointer($0) }
    response.body.withUnsafeBufferPointer { body in
      namePointers.withUnsafeBufferPointer { names in
        valuePointers.withUnsafeBufferPointer { values in
          tessera_server_respond(
            handle, UInt32(response.status), names.baseAddress, values.baseAddress, headers.count,
            body.baseAddress, body.count, request.method == "HEAD" ? 1 : 0)
        }
      }
    }
  }

  /// A header as it may be sent: nil when the name is not an HTTP token (names are the
  /// program's own, so that is a bug, not input); the value with each control character (CR,
  /// LF, NUL, tab, the rest of C0 and DEL) replaced by a space and the ends trimmed.
  static func cleanHeader(name: String, value: String) -> (String, String)? {
    let token = Set("!#$%&'*+-.^_`|~".unicodeScalars)
    guard !name.isEmpty,
      name.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || token.contains($0))
      })
    else { return nil }
    var cleaned = String.UnicodeScalarView()
    for scalar in value.unicodeScalars {
      cleaned.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
    }
    return (name, String(cleaned).trimmingCharacters(in: .whitespaces))
  }

  /// Stops taking new connections (each is closed as it comes; the port stays bound until
  /// ``stop()``).
  public func quiesce() {
    lock.withLock {
      if let server { tessera_server_quiesce(server) }
    }
  }

  /// Stops the server (connections still open are closed).
  public func stop() {
    let stopping = lock.withLock { () -> OpaquePointer? in
      defer { server = nil }
      return server
    }
    if let stopping { tessera_server_stop(stopping) }
  }

  deinit { stop() }
}

public struct HTTPServerError: Error, CustomStringConvertible {
  public let reason: String
  public var description: String { reason }
}
