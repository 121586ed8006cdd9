import CTesseraHTTP
import Glibc
import TesseraNumbers

/// A blocking HTTP GET through libcurl (see `tessera_http.h`).
enum HTTPClient {
  struct Response {
    let status: Int
    let body: [UInt8]
    /// Header names lowercased; the last value wins.
    let headers: [String: String]
  }

  /// A transfer that did not complete.
  struct TransportError: Error {
    let curlCode: Int32
    let message: String
    let bodyTooLarge: Bool

    /// Whether trying again may help (timeouts, refused or reset connections, truncated bodies).
    var isTransient: Bool { !bodyTooLarge && [6, 7, 18, 28, 52, 55, 56].contains(curlCode) }

    /// Whether the host gave no answer at all: it could not be resolved or connected to, or
    /// the transfer timed out (curl's codes 6, 7 and 28).
    var isSilence: Bool { [6, 7, 28].contains(curlCode) }
  }

  struct Settings {
    var connectTimeoutMilliseconds: Int
    var timeoutMilliseconds: Int
    var maxBodyBytes: Int
    var userAgent: String
    /// Redirects followed by libcurl; 0 returns a redirect as the response.
    var maxRedirects = 5
    /// Whether loopback, private and link-local addresses may be connected to.
    var allowsPrivateAddresses = true
  }

  static func get(_ url: String, headers: [String], settings: Settings) throws(TransportError) -> Response {
    var response = tessera_http_response()
    let status: Int32 = settings.userAgent.withCString { agent in
      var pointers = headers.map { strdup($0) }
      defer { pointers.forEach { free($0) } }
      let options = tessera_http_options(
        connect_timeout_ms: settings.connectTimeoutMilliseconds, timeout_ms: settings.timeoutMilliseconds,
        max_body_bytes: settings.maxBodyBytes, user_agent: agent, max_redirects: settings.maxRedirects,
        allow_private_addresses: settings.allowsPrivateAddresses ? 1 : 0)
      return pointers.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constant in
          tessera_http_get(url, constant.baseAddress, constant.count, options, &response)
        }
      }
    }
    defer { tessera_http_free(&response) }
    if status != 0 {
      let message = withUnsafeBytes(of: &response.error) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      throw TransportError(curlCode: response.curl_code, message: message, bodyTooLarge: response.body_too_large != 0)
    }
    let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_size)) } ?? []
    var parsed: [String: String] = [:]
    if let raw = response.headers {
      // Split the bytes, not Characters: "\r\n" is one Character in Swift.
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: response.headers_size)
      for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        parsed[name] = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: " \t")
      }
    }
    return Response(status: Int(response.status), body: body, headers: parsed)
  }
}
