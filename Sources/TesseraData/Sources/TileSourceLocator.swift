import Foundation
import Synchronization
import TesseraJSON
import TesseraNumbers

/// Opens tile sources from the references styles and the command line use:
///
/// | reference | source |
/// |---|---|
/// | `mbtiles://PATH`, `*.mbtiles` | ``MBTilesSource`` |
/// | `pmtiles://PATH`, `*.pmtiles` | ``PMTilesSource`` |
/// | `file://PATH`, a folder | by extension, else ``FolderSource`` |
/// | `http(s)://…{z}/{x}/{y}…` | ``HTTPTileSource`` on the template |
/// | `http(s)://…` without `{z}` | a TileJSON document whose first `tiles` template is used |
/// | `demo://city[?seed=N]` | ``DemoCitySource`` |
/// | `contours[+ENCODING]://DEM` | ``ContourSource`` over the DEM source `DEM` names |
///
/// Relative paths resolve against `dataRoot` (the scene's data root, or the working folder).
/// The same resolved reference opens one source per locator, shared by everyone asking.
package final class TileSourceLocator: Sendable {
  package let dataRoot: String
  package let httpOptions: HTTPTileSource.Options
  private let opened = Mutex<[String: any TileSource]>([:])

  /// `contours://` followed by a DEM source's reference: ``ContourSource`` over that DEM
  /// (`contours+terrarium://` or `contours+mapbox://` when the DEM's metadata does not say
  /// how its heights are encoded).
  package static let contourScheme = "contours://"

  /// The reference of contours over a DEM encoded `encoding` (nil: as its metadata says).
  package static func contours(of dem: String, encoding: DEMEncoding?) -> String {
    (encoding.map { "contours+\($0.rawValue)://" } ?? contourScheme) + dem
  }

  /// The encoding and DEM reference of a `contours…://` reference; nil for other references.
  static func contourReference(_ reference: String) throws(TileSourceError) -> (DEMEncoding?, String)? {
    guard reference.hasPrefix("contours"), let separator = reference.range(of: "://") else { return nil }
    let scheme = reference[..<separator.lowerBound]
    let dem = String(reference[separator.upperBound...])
    if scheme == "contours" { return (nil, dem) }
    guard scheme.hasPrefix("contours+"), let encoding = DEMEncoding(rawValue: String(scheme.dropFirst(9))) else {
      throw TileSourceError.open(
        source: reference, reason: "expected contours://, contours+terrarium:// or contours+mapbox://")
    }
    return (encoding, dem)
  }

  package init(
    dataRoot: String = FileManager.default.currentDirectoryPath, httpOptions: HTTPTileSource.Options = .init()
  ) {
    self.dataRoot = dataRoot
    self.httpOptions = httpOptions
  }

  /// The source a reference names (opened once; later calls return the same object).
  package func open(_ reference: String, folderOptions: FolderSource.Options = .init()) throws(TileSourceError)
    -> any TileSource
  {
    let key = resolvedKey(reference)
    if let source = opened.withLock({ $0[key] }) { return source }
    let source = try make(reference, folderOptions: folderOptions)
    return opened.withLock { table in
      if let existing = table[key] { return existing }
      table[key] = source
      return source
    }
  }

  /// `path` made absolute against the data root.
  package func resolve(_ path: String) -> String {
    let joined = path.hasPrefix("/") ? path : "\(dataRoot)/\(path)"
    return URL(fileURLWithPath: joined).standardizedFileURL.path
  }

  private func resolvedKey(_ reference: String) -> String {
    for scheme in ["mbtiles://", "pmtiles://", "file://"] where reference.hasPrefix(scheme) {
      return resolve(String(reference.dropFirst(scheme.count)))
    }
    if let (encoding, dem) = try? Self.contourReference(reference) {
      return Self.contours(of: resolvedKey(dem), encoding: encoding)
    }
    if reference.contains("://") { return reference }
    return resolve(reference)
  }

  private func make(_ reference: String, folderOptions: FolderSource.Options) throws(TileSourceError) -> any TileSource
  {
    if reference.hasPrefix("demo://") {
      guard reference.hasPrefix(DemoCitySource.defaultURL) else {
        throw TileSourceError.open(
          source: reference, reason: "unknown demo source (expected \(DemoCitySource.defaultURL)[?seed=N])")
      }
      var seed: UInt64 = 1
      if let query = reference.split(separator: "?", maxSplits: 1).dropFirst().first {
        for pair in query.split(separator: "&") where pair.hasPrefix("seed=") {
          guard let value = UInt64(pair.dropFirst(5)) else {
            throw TileSourceError.open(source: reference, reason: "seed must be a non-negative integer")
          }
          seed = value
        }
      }
      return DemoCitySource(seed: seed)
    }
    if let (encoding, dem) = try Self.contourReference(reference) {
      return try ContourSource(dem: try open(dem), encoding: encoding, name: reference)
    }
    if reference.hasPrefix("mbtiles://") { return try MBTilesSource(path: resolve(String(reference.dropFirst(10)))) }
    if reference.hasPrefix("pmtiles://") { return try PMTilesSource(path: resolve(String(reference.dropFirst(10)))) }
    if reference.hasPrefix("http://") || reference.hasPrefix("https://") {
      if reference.contains("{z}") || reference.contains("{quadkey}") {
        return try HTTPTileSource(template: reference, options: httpOptions)
      }
      return try openTileJSON(reference)
    }
    if reference.contains("://") && !reference.hasPrefix("file://") {
      throw TileSourceError.open(
        source: reference, reason: "unsupported URL scheme (mbtiles, pmtiles, file, http, https, demo, contours)")
    }
    let path = resolve(reference.hasPrefix("file://") ? String(reference.dropFirst(7)) : reference)
    if path.hasSuffix(".mbtiles") { return try MBTilesSource(path: path) }
    if path.hasSuffix(".pmtiles") { return try PMTilesSource(path: path) }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TileSourceError.open(source: path, reason: "no such file or folder")
    }
    if isDirectory.boolValue { return try FolderSource(path: path, options: folderOptions) }
    throw TileSourceError.open(
      source: path, reason: "not a tile source (expected .mbtiles, .pmtiles or a {z}/{x}/{y} folder)")
  }

  /// An HTTP source described by a TileJSON document.
  private func openTileJSON(_ url: String) throws(TileSourceError) -> any TileSource {
    let settings = HTTPClient.Settings(
      connectTimeoutMilliseconds: HTTPTileSource.milliseconds(httpOptions.connectTimeout),
      timeoutMilliseconds: HTTPTileSource.milliseconds(httpOptions.timeout),
      maxBodyBytes: 4 << 20, userAgent: httpOptions.userAgent)
    let response: HTTPClient.Response
    do {
      response = try HTTPClient.get(url, headers: [], settings: settings)
    } catch {
      throw TileSourceError.open(source: url, reason: "cannot fetch TileJSON: \(error.message)")
    }
    guard response.status == 200, let object = (try? JSONParser.parse(response.body))?.object else {
      throw TileSourceError.open(source: url, reason: "expected a TileJSON document, got HTTP \(response.status)")
    }
    let metadata = TileJSON.metadata(from: object, format: .unknown)
    guard let template = JSONValue.object(object)["tiles"]?.array?.first?.string else {
      throw TileSourceError.open(source: url, reason: "TileJSON has no tiles template")
    }
    var options = httpOptions
    options.minZoom = metadata.minZoom
    options.maxZoom = metadata.maxZoom
    options.format = metadata.format == .unknown ? nil : metadata.format
    options.encoding = metadata.encoding
    options.metadataProblems = metadata.problems.map { "\(url): \($0)" }
    return try HTTPTileSource(template: template, options: options)
  }
}
