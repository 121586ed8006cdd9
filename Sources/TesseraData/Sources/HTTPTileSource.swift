import Dispatch
import Foundation
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// Tiles from an HTTP(S) URL template (`https://host/{z}/{x}/{y}.png`; also `{-y}` for TMS rows
/// and `{quadkey}`), fetched with libcurl.
///
/// - At most ``Options/maxConcurrentRequests`` requests run at once (fetches come from worker
///   threads in parallel).
/// - Timeouts for connecting and for the whole transfer; transient failures (timeouts, refused
///   or reset connections, truncated bodies, 5xx and 429) are retried with doubling delays.
/// - A host that does not answer (``Options/breaker``: three requests in a row unable to
///   connect or timed out) is not asked again for a while: its tiles fail at once, naming it.
/// - 404 and 204 mean "no tile here"; any other failure is reported for that tile, not fatal.
/// - With a cache folder, responses are kept on disk: fresh entries (Cache-Control max-age or
///   Expires) are served without a request, stale ones revalidated with If-None-Match /
///   If-Modified-Since (304 refreshes them); `no-store` responses are not kept. The folder is
///   bounded in size (least recently used entries are removed) and survives restarts.
public final class HTTPTileSource: TileSource {
  public struct Options: Sendable, Equatable {
    public var minZoom = 0
    public var maxZoom = 22
    /// Tile format; guessed from the template's extension when nil.
    package var format: TileFormat?
    package var encoding: DEMEncoding?
    /// Folder of the disk cache, or nil for none.
    public var cacheDirectory: String?
    /// Budget of the disk cache, bytes (default 512 MiB).
    public var cacheMaxBytes = 512 << 20
    public var maxConcurrentRequests = 8
    /// Seconds to connect.
    public var connectTimeout = 5.0
    /// Seconds for a whole transfer.
    public var timeout = 15.0
    /// Further attempts after a transient failure.
    public var retries = 2
    /// Seconds before the first retry (doubling after).
    public var retryDelay = 0.2
    public var maxTileBytes = 16 << 20
    public var userAgent = "tessera"
    /// Stops asking a host that does not answer; shared when several sources should agree
    /// (each source makes its own when nil).
    package var breaker: HTTPCircuitBreaker?
    /// Problems of the metadata the source was described by (a TileJSON document's values out
    /// of range), passed on in the source's ``TileSourceMetadata/problems``.
    public var metadataProblems: [String] = []

    public init() {}

    public static func == (a: Options, b: Options) -> Bool {
      a.minZoom == b.minZoom && a.maxZoom == b.maxZoom && a.format == b.format && a.encoding == b.encoding
        && a.cacheDirectory == b.cacheDirectory && a.cacheMaxBytes == b.cacheMaxBytes
        && a.maxConcurrentRequests == b.maxConcurrentRequests && a.connectTimeout == b.connectTimeout
        && a.timeout == b.timeout && a.retries == b.retries && a.retryDelay == b.retryDelay
        && a.maxTileBytes == b.maxTileBytes && a.userAgent == b.userAgent && a.breaker === b.breaker
        && a.metadataProblems == b.metadataProblems
    }
  }

  package let name: String
  package let metadata: TileSourceMetadata
  let template: String
  let options: Options
  private let cache: HTTPDiskCache?
  private let slots: DispatchSemaphore
  private let breaker: HTTPCircuitBreaker
  private let host: String

  /// A source for a URL template.
  package init(template: String, options: Options = Options()) throws(TileSourceError) {
    guard template.hasPrefix("http://") || template.hasPrefix("https://") else {
      throw TileSourceError.open(source: template, reason: "not an http(s) URL")
    }
    guard
      template.contains("{z}") && template.contains("{x}") && (template.contains("{y}") || template.contains("{-y}"))
        || template.contains("{quadkey}")
    else {
      throw TileSourceError.open(
        source: template, reason: "a tile URL template needs {z}, {x} and {y} (or {-y}, {quadkey})")
    }
    name = template
    self.template = template
    self.options = options
    let path = template.split(separator: "?").first.map(String.init) ?? template
    let guessed = TileFormat(name: (path as NSString).pathExtension)
    var metadata = TileSourceMetadata(
      format: options.format ?? guessed, minZoom: options.minZoom, maxZoom: options.maxZoom)
    metadata.encoding = options.encoding
    metadata.problems = options.metadataProblems
    self.metadata = metadata
    cache = try options.cacheDirectory.map { directory throws(TileSourceError) in
      try HTTPDiskCache(directory: directory, maxBytes: options.cacheMaxBytes)
    }
    slots = DispatchSemaphore(value: max(options.maxConcurrentRequests, 1))
    breaker = options.breaker ?? HTTPCircuitBreaker()
    host = HTTPCircuitBreaker.host(of: template)
  }

  /// The URL of a tile.
  package func url(for tile: TileID) -> String {
    var url = template
    url = url.replacingOccurrences(of: "{z}", with: String(tile.z))
    url = url.replacingOccurrences(of: "{x}", with: String(tile.x))
    url = url.replacingOccurrences(of: "{y}", with: String(tile.y))
    url = url.replacingOccurrences(of: "{-y}", with: String(tile.tmsY))
    if url.contains("{quadkey}") {
      var key = ""
      for level in stride(from: tile.z, to: 0, by: -1) {
        let mask = 1 << (level - 1)
        key += String((tile.x & mask != 0 ? 1 : 0) + (tile.y & mask != 0 ? 2 : 0))
      }
      url = url.replacingOccurrences(of: "{quadkey}", with: key)
    }
    return url
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    guard tile.z >= metadata.minZoom, tile.z <= metadata.maxZoom else { return .noTile }
    let url = url(for: tile)
    let cached = cache?.entry(for: url)
    if let cached, cached.expires > Date().timeIntervalSince1970 { return .data(cached.body) }
    var headers: [String] = []
    if let etag = cached?.etag { headers.append("If-None-Match: \(etag)") }
    if let lastModified = cached?.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
    let settings = HTTPClient.Settings(
      connectTimeoutMilliseconds: HTTPTileSource.milliseconds(options.connectTimeout),
      timeoutMilliseconds: HTTPTileSource.milliseconds(options.timeout), maxBodyBytes: options.maxTileBytes,
      userAgent: options.userAgent)
    var delay = min(max(options.retryDelay, 0), 60)
    var failure = ""
    attempts: for attempt in 0...min(max(options.retries, 0), 10) {
      if let refusal = breaker.refusal(for: host) {
        failure = refusal
        break attempts
      }
      if attempt > 0 {
        Thread.sleep(forTimeInterval: delay)
        delay *= 2
      }
      slots.wait()
      let outcome = Result { () throws(HTTPClient.TransportError) in
        try HTTPClient.get(url, headers: headers, settings: settings)
      }
      slots.signal()
      switch outcome {
      case .failure(let error):
        failure = error.bodyTooLarge ? "larger than \(options.maxTileBytes) bytes" : error.message
        if error.isSilence { breaker.recordSilence(from: host) } else { breaker.recordAnswer(from: host) }
        if error.isTransient { continue attempts }
        break attempts
      case .success(let response):
        breaker.recordAnswer(from: host)
        switch response.status {
        case 200:
          store(response, body: response.body, url: url)
          return .data(response.body)
        case 304:
          guard let cached else {
            failure = "304 Not Modified without a cached copy"
            break attempts
          }
          store(response, body: cached.body, url: url)
          return .data(cached.body)
        case 204, 404:
          return .noTile
        case 429, 500...599:
          failure = "HTTP \(response.status)"
          continue attempts
        default:
          failure = "HTTP \(response.status)"
          break attempts
        }
      }
    }
    let attempts = options.retries + 1
    throw TileSourceError.tileRead(
      source: name, tile: tile, reason: "\(url): \(failure) (\(attempts) attempt(s) at most)")
  }

  /// Whole milliseconds of `seconds`, held within 1 ms … 1 hour.
  static func milliseconds(_ seconds: Double) -> Int {
    Int(clamping: min(max(seconds.isNaN ? 1 : seconds, 0.001), 3600) * 1000)
  }

  /// Keeps a response in the disk cache unless it says `no-store`.
  private func store(_ response: HTTPClient.Response, body: [UInt8], url: String) {
    guard let cache else { return }
    let control = (response.headers["cache-control"] ?? "").lowercased()
    if control.contains("no-store") { return }
    let now = Date().timeIntervalSince1970
    var lifetime = 0.0
    if !control.contains("no-cache") {
      for directive in control.split(separator: ",") {
        let parts = directive.split(separator: "=").map { $0.trimmingCharacters(in: " ") }
        if parts.count == 2, parts[0] == "max-age" || parts[0] == "s-maxage", let seconds = Double(parts[1]) {
          lifetime = max(lifetime, seconds)
        }
      }
      if lifetime == 0, let expires = response.headers["expires"].flatMap(HTTPTileSource.httpDate) {
        lifetime = max(0, expires - now)
      }
    }
    cache.store(
      HTTPDiskCache.Entry(
        body: body, etag: response.headers["etag"], lastModified: response.headers["last-modified"],
        expires: now + lifetime),
      for: url)
  }

  /// Seconds since 1970 of an HTTP date (RFC 7231 IMF-fixdate), or nil.
  static func httpDate(_ text: String) -> Double? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return formatter.date(from: text)?.timeIntervalSince1970
  }
}
