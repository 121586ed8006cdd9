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
  /// The server's request, or nil for a request made in memory (parser tests), which has no
  /// headers and cannot be answered.
  let handle: OpaquePointer?

  /// A request header (case-insensitive name), or nil.
  public func header(_ name: String) -> String? {
    guard let handle else { return nil }
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

/// How an ``HTTPServer`` listens.
public struct HTTPServerOptions: Sendable {
  /// An IPv4 or IPv6 address, and a port (0: any free one).
  public var host: String
  public var port: UInt16
  /// Polling threads.
  public var threads = 2
  /// Seconds a connection may stay idle (nothing received or sent).
  public var idleTimeout = 10
  /// Connections open at once.
  public var connectionLimit = 1024
  /// Whether other sockets may listen on the same address and port (SO_REUSEPORT); without
  /// it a port in use fails the start.
  public var reusePort = false
  /// Bytes of a request body kept; a larger one is dropped (the request says so).
  public var maxBody = 1 << 20

  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }
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

  private var server: OpaquePointer?
  private let handler: Handler
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
    var error = [CChar](repeating: 0, count: 512)
    let context = Unmanaged.passUnretained(self).toOpaque()
    let started = options.host.withCString { host in
      var settings = tessera_server_options(
        host: host, port: options.port, threads: UInt32(clamping: max(options.threads, 1)),
        idle_timeout_seconds: UInt32(clamping: max(options.idleTimeout, 1)),
        connection_limit: UInt32(clamping: max(options.connectionLimit, 1)), reuse_port: options.reusePort ? 1 : 0,
        max_body: max(options.maxBody, 0))
      return tessera_server_start(
        &settings,
        { context, request, method, path, keys, values, count, targetLength, rawTarget, body, bodyLength, tooLarge in
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
            arguments: arguments, targetLength: targetLength, rawTarget: rawTarget.map { String(cString: $0) } ?? "",
            body: body.map { Array(UnsafeBufferPointer(start: $0, count: bodyLength)) } ?? [],
            bodyTooLarge: tooLarge != 0, client: HTTPServer.text(client), handle: request)
          server.handler(parsed)
        }, context, &error, error.count)
    }
    guard let started else { throw HTTPServerError(reason: HTTPServer.text(error)) }
    server = started
    self.port = tessera_server_port(started)
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

  /// Stops accepting new connections.
  public func quiesce() {
    if let server { tessera_server_quiesce(server) }
  }

  /// Stops the server (connections still open are closed).
  public func stop() {
    if let server { tessera_server_stop(server) }
    server = nil
  }

  deinit { stop() }
}

public struct HTTPServerError: Error, CustomStringConvertible {
  public let reason: String
  public var description: String { reason }
}
