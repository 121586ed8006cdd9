import Foundation
import TesseraNumbers

/// A style's `glyphs` URL template (`…/{fontstack}/{range}.pbf`) bound to where it points:
/// files (paths, `file://`, and `local://` resolved by the caller), or HTTP(S) fetched with
/// the tile fetcher's settings and disk cache.
package struct GlyphURLTemplate: Sendable {
  package let template: String
  private let http: HTTPTileSource.Options
  private let cache: HTTPDiskCache?

  /// `template` with `{fontstack}` and `{range}`; file templates must already be paths.
  package init(template: String, http: HTTPTileSource.Options = HTTPTileSource.Options()) {
    self.template = template
    self.http = http
    cache = http.cacheDirectory.flatMap { try? HTTPDiskCache(directory: $0 + "/glyphs", maxBytes: http.cacheMaxBytes) }
  }

  var isHTTP: Bool { template.hasPrefix("http://") || template.hasPrefix("https://") }

  /// The URL (or path) of one range: the font stack percent-encoded in URLs, plain in paths
  /// (as MapLibre's file source decodes it).
  package func url(fontStack: String, rangeStart: Int) -> String {
    let stack =
      isHTTP
      ? (fontStack.addingPercentEncoding(
        withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: ","))) ?? fontStack) : fontStack
    return template.replacingOccurrences(of: "{fontstack}", with: stack)
      .replacingOccurrences(of: "{range}", with: "\(rangeStart)-\(rangeStart + 255)")
  }

  /// The PBF bytes of a range; nil when there is none (no file, HTTP 404 or 204); throws for
  /// other failures, naming the URL.
  package func load(fontStack: String, rangeStart: Int) throws(GlyphError) -> [UInt8]? {
    let location = url(fontStack: fontStack, rangeStart: rangeStart)
    guard isHTTP else {
      let path = location.hasPrefix("file://") ? String(location.dropFirst(7)) : location
      guard FileManager.default.fileExists(atPath: path) else { return nil }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw GlyphError(source: path, reason: "cannot read the glyph file")
      }
      return Array(data)
    }
    if let entry = cache?.entry(for: location), entry.expires > Date().timeIntervalSince1970 { return entry.body }
    let settings = HTTPClient.Settings(
      connectTimeoutMilliseconds: Int(clamping: http.connectTimeout * 1000),
      timeoutMilliseconds: Int(clamping: http.timeout * 1000),
      maxBodyBytes: http.maxTileBytes, userAgent: http.userAgent)
    var lastError = ""
    for attempt in 0...max(http.retries, 0) {
      do {
        let response = try HTTPClient.get(location, headers: [], settings: settings)
        switch response.status {
        case 200:
          cache?.store(
            HTTPDiskCache.Entry(
              body: response.body, etag: nil, lastModified: nil, expires: Date().timeIntervalSince1970 + 86_400),
            for: location)
          return response.body
        case 204, 404: return nil
        default: lastError = "HTTP \(response.status)"
        }
      } catch {
        lastError = error.message
        guard error.isTransient else { break }
      }
      if attempt < http.retries { usleep(useconds_t(clamping: http.retryDelay * 1_000_000)) }
    }
    throw GlyphError(source: location, reason: "cannot fetch the glyphs: \(lastError)")
  }
}
