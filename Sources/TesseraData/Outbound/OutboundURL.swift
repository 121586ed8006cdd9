import TesseraNumbers

/// An `http` or `https` URL in one canonical spelling: scheme and host in lower case, the
/// default port left out, the path's percent escapes decoded and its `.` and `..` segments
/// resolved, then encoded again one way. An allow-list compares these, and a fetch asks for
/// exactly the URL that was compared, so `http://host/icons/../secret`,
/// `http://host/icons/%2e%2e/secret` and `http://HOST:80/icons/./../secret` are all
/// `http://host/secret`, and are judged as that.
///
/// Refused outright: other schemes, user names and passwords in the authority, encoded slashes,
/// backslashes or NUL in a segment, malformed escapes, spaces and control characters anywhere.
package struct OutboundURL: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// `http` or `https`.
  package let scheme: String
  /// The host in lower case (an IPv6 address in brackets).
  package let host: String
  /// The port, the scheme's default when none is written.
  package let port: Int
  /// The path's segments, decoded, dot segments resolved; a path ending in `/` ends with an
  /// empty segment.
  package let segments: [String]
  /// The query as written (without `?`), if any.
  package let query: String?

  /// Reads `text`; throws a one-line reason when it is not an acceptable http(s) URL.
  package init(_ text: String) throws(OutboundURLError) {
    func refuse(_ reason: String) -> OutboundURLError { OutboundURLError(url: text, reason: reason) }
    guard text.utf8.count <= 4096 else { throw refuse("longer than 4096 bytes") }
    guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" }) else {
      throw refuse("spaces, control characters and backslashes are not allowed")
    }
    guard let separator = text.range(of: "://") else { throw refuse("expected http:// or https://") }
    let scheme = text[..<separator.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { throw refuse("only http and https are fetched") }
    var rest = text[separator.upperBound...]
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    rest = rest[authorityEnd...]
    guard !authority.contains("@") else { throw refuse("user names and passwords are not allowed") }
    var host: Substring
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw refuse("an unclosed IPv6 address") }
      host = authority[...close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw refuse("unexpected text after the IPv6 address") }
        portText = after.dropFirst()
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      portText = authority[authority.index(after: colon)...]
    } else {
      host = authority
    }
    guard !host.isEmpty, !host.contains("%") else { throw refuse("expected a host name") }
    let defaultPort = scheme == "https" ? 443 : 80
    var port = defaultPort
    if let portText {
      guard let value = Int(portText), (1...65535).contains(value) else { throw refuse("the port must be 1…65535") }
      port = value
    }
    var query: String?
    if let mark = rest.firstIndex(of: "?") {
      query = String(rest[rest.index(after: mark)...])
      rest = rest[..<mark]
    }
    self.scheme = scheme
    self.host = host.lowercased()
    self.port = port
    self.query = query
    self.segments = try Self.resolve(rest.isEmpty ? "/" : rest, url: text)
  }

  private init(scheme: String, host: String, port: Int, segments: [String], query: String?) {
    self.scheme = scheme
    self.host = host
    self.port = port
    self.segments = segments
    self.query = query
  }

  /// The path `path` (starting with `/`) as decoded segments with dot segments resolved.
  static func resolve(_ path: Substring, url: String) throws(OutboundURLError) -> [String] {
    var segments: [String] = []
    let raw = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    for (index, piece) in raw.enumerated() {
      guard let decoded = percentDecoded(piece) else {
        throw OutboundURLError(url: url, reason: "a malformed percent escape in '\(piece)'")
      }
      guard !decoded.contains("/"), !decoded.contains("\\"),
        !decoded.unicodeScalars.contains(where: { $0.value < 0x20 })
      else {
        throw OutboundURLError(url: url, reason: "an encoded slash, backslash or control character in a segment")
      }
      let last = index == raw.count - 1
      switch decoded {
      case ".":
        if last { segments.append("") }
      case "..":
        if !segments.isEmpty { segments.removeLast() }
        if last { segments.append("") }
      default:
        // An empty segment inside the path (`a//b`) is kept only at the end (a trailing slash).
        if decoded.isEmpty && !last { continue }
        segments.append(decoded)
      }
    }
    return segments.isEmpty ? [""] : segments
  }

  /// `text` with `%XX` escapes decoded as UTF-8; nil when an escape is malformed or the bytes
  /// are not UTF-8.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%") {
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
          return nil
        }
        bytes.append(high << 4 | low)
      } else {
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// A segment percent-encoded: everything but RFC 3986's unreserved characters, sub-delimiters,
  /// `:` and `@`.
  static func encoded(_ segment: String) -> String {
    var out = ""
    for byte in segment.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        if "-._~!$&'()*+,;=:@".utf8.contains(byte) {
          out.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
          let digits = Array("0123456789ABCDEF".utf8)
          out += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }
      }
    }
    return out
  }

  /// The canonical spelling, the URL that is fetched.
  package var description: String {
    let defaultPort = scheme == "https" ? 443 : 80
    let authority = port == defaultPort ? host : "\(host):\(port)"
    let path = "/" + segments.map(Self.encoded).joined(separator: "/")
    return "\(scheme)://\(authority)\(path)" + (query.map { "?" + $0 } ?? "")
  }

  /// Whether this URL lies under `prefix`: the same scheme, host and port, and a path inside
  /// the prefix's folder (the prefix's path is a folder whether or not it ends with `/`; its
  /// query is ignored).
  package func isWithin(_ prefix: OutboundURL) -> Bool {
    guard scheme == prefix.scheme, host == prefix.host, port == prefix.port else { return false }
    let folder = prefix.segments.last == "" ? Array(prefix.segments.dropLast()) : prefix.segments
    return segments.count > folder.count && Array(segments.prefix(folder.count)) == folder
      && segments[folder.count...] != [""]
  }

  /// The URL a reference (a redirect's `Location`) names, read against this one.
  package func resolving(_ reference: String) throws(OutboundURLError) -> OutboundURL {
    if reference.contains("://") { return try OutboundURL(reference) }
    if reference.hasPrefix("//") { return try OutboundURL(scheme + ":" + reference) }
    let defaultPort = scheme == "https" ? 443 : 80
    let origin = "\(scheme)://" + (port == defaultPort ? host : "\(host):\(port)")
    if reference.hasPrefix("/") { return try OutboundURL(origin + reference) }
    let folder = segments.dropLast().map(Self.encoded).joined(separator: "/")
    return try OutboundURL(origin + "/" + (folder.isEmpty ? "" : folder + "/") + reference)
  }
}

/// A URL that cannot be fetched as it is written.
package struct OutboundURLError: Error, Equatable, CustomStringConvertible {
  package let url: String
  package let reason: String

  package init(url: String, reason: String) {
    self.url = url
    self.reason = reason
  }

  package var description: String { "\(url.prefix(200)): \(reason)" }
}
