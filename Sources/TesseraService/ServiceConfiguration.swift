import Foundation
import Tessera
import TesseraData
import TesseraJSON
import TesseraNumbers

/// How `tessera serve` runs: where it listens, its workers and limits, and its data. Read from
/// a JSON config file (every field optional) with flags on top.
public struct ServiceConfiguration: Sendable {
  public var host = "127.0.0.1"
  public var port: UInt16 = 8080
  /// Render threads (each with a GL context); all cores by default.
  public var workers = ProcessInfo.processInfo.activeProcessorCount
  /// Requests waiting beyond those rendering; more are answered 503 at once.
  public var queueLimit = 32
  /// Seconds a request may take before it is answered 504.
  public var deadline = 10.0
  /// Google's limits: 640×640 at scale 1 or 2.
  public var maxWidth = 640
  public var maxHeight = 640
  public var maxScale = 2.0
  /// Bytes of a request body (413 beyond).
  public var maxBodyBytes = 1 << 20
  /// How much one request may ask to draw: markers, overlays, and overlay points after
  /// geodesic densification (413 beyond, before anything is tessellated). 500,000 points take
  /// about 200 MB while a frame is prepared.
  public var contentLimits = ContentLimits(markers: 10_000, overlays: 1_000, overlayPoints: 500_000)
  /// Seconds a connection may stay idle (nothing received or sent) before it is dropped.
  public var connectionTimeout = 10
  /// Connections open at once (beyond them a small reserve serves only `/health`, `/readyz`
  /// and `/metrics`, so probes are answered while every ordinary connection is taken).
  public var connectionLimit = 1024
  /// Seconds for a request's head (request line and headers) to arrive, counted from the
  /// connection's start or the previous answer on it (so it also bounds the idle time of a
  /// kept-alive connection); past it the connection is closed. A client sending a header line
  /// now and then cannot keep a connection longer.
  public var headerTimeout = 10.0
  /// Seconds for a request's body to arrive, counted from the end of its head, and for an
  /// answer to be sent, counted from when it is ready; past either the connection is closed.
  /// A request waiting for its render has no such deadline (`deadline` bounds it).
  public var bodyTimeout = 30.0
  /// Connections open at once from one client address (more are closed as they come); 0: no
  /// cap. Behind a proxy every client has the proxy's address: raise it to the proxy's
  /// connections to this service, or 0.
  public var maxConnectionsPerClient = 64
  /// Whether other processes may listen on the same address and port (SO_REUSEPORT, the
  /// kernel then spreads connections over them). Off: a second `tessera serve` on a port in
  /// use fails at start.
  public var reusePort = false
  /// Seconds a shutdown keeps the listener answering with `/readyz` at 503 before it stops
  /// (accepted requests are answered meanwhile, new renders refused with 503), so that load
  /// balancers polling readiness take the instance out first. 0 (the default) stops as soon as
  /// the accepted requests are answered; in production a little more than the balancer's
  /// readiness period times its failure threshold (15 with Kubernetes probing every 5 s, 3
  /// failures).
  public var drainSeconds = 0.0
  /// Where log lines go (the access log's and the service's own: one JSON object per line,
  /// with its newline). By default standard error, written off the serving threads.
  public var logSink: ServiceLog.Sink = ServiceLog.standardError
  /// Whether images credit their sources (bottom right).
  public var attribution = true
  /// The data of the built-in map types (as `tessera render`'s `--data-root`, `--tiles`, …).
  public var dataRoot = FileManager.default.currentDirectoryPath
  public var tiles: String?
  public var imagery: String?
  public var dem: String?
  /// Where map IDs are declared (a styles folder or config file).
  public var mapIDs: MapIDRegistry?
  /// JSON access log lines on standard error.
  public var accessLog = false
  /// Host names (with or without port) the `Host` header may name; nil: any. A request for
  /// another host is answered 421. Links the service writes use the request's host only when it
  /// is one of these (and no ``publicURL`` is set).
  public var allowedHosts: Set<String>?
  /// The URL clients reach the service at (`https://maps.example.org`, or with a path prefix
  /// behind a proxy: `https://example.org/maps`), as tileserver-gl's `publicUrl`: links in
  /// `/styles.json`, TileJSON and WMTS start with it. Without it links are relative
  /// (`/styles/…`) unless the request's host is in ``allowedHosts``; the `Host` header is never
  /// written back otherwise, so no request can plant another host in a cached answer.
  public var publicURL: String?
  /// `Access-Control-Allow-Origin` for answers (`*` or an origin); nil: no CORS headers.
  public var corsOrigin: String?
  /// Whether `X-Forwarded-Host`/`-Proto`/`-For` from a proxy in front are believed.
  public var trustsForwardedHeaders = false
  /// URL prefixes marker icons may be fetched from (`https://icons.example.org/`); empty: none.
  /// Compared in their canonical spelling (``OutboundURL``), on every redirect too.
  package var iconHosts: [OutboundURL] = []
  /// Whether icon URLs may lead to loopback, private, link-local (cloud metadata) or other
  /// non-public addresses; off by default, checked on the address connected to.
  public var iconPrivateAddresses = false
  /// A folder marker icons may be named in; nil: none.
  public var iconFolder: String?
  /// Where `/metrics` is served on its own (`"metricsListen": "127.0.0.1:9090"`); nil: with the
  /// maps.
  public var metricsHost: String?
  public var metricsPort: UInt16 = 0
  /// API keys the Static Maps endpoint accepts (`key=`); nil: no key needed.
  public var keys: Set<String>?
  /// The URL-signing secret (URL-safe base64, Google's scheme); nil: no signature needed.
  public var signingSecret: String?
  /// Raster tiles (`/styles/{id}/{z}/{x}/{y}.png`): tiles per metatile side, the buffer drawn
  /// around a metatile (points), bytes of rendered metatiles kept for the requests of their
  /// other tiles, and whether a tile outside the data's bounds is answered 404 ("sparse",
  /// so clients draw the parent tile instead) rather than 204.
  public var tileMetatile = 2
  public var tileBuffer = 64
  public var tileCacheBytes = 256 << 20
  public var sparseTiles = false
  /// What the config file sets that the service does not use (a tileserver-gl config's options
  /// without an equivalent), one line each; logged when the service starts.
  public var warnings: [String] = []
  /// Style files `/styles/{id}/style.json` answers with where they differ from the file drawn:
  /// a tileserver-gl style as written, not the copy with its sources and folders resolved to
  /// the server's paths.
  public var publishedStyleFiles: [String: String] = [:]
  /// The folder of the copies ``styles`` draw of a tileserver-gl config's styles (resolved to
  /// absolute paths), kept while this configuration or a copy of it is; nil for other configs.
  package var resolvedStyles: ResolvedStylesFolder?
  /// The data sets `/data/{id}…` serves (a tileserver-gl config's `data`), by id.
  package var dataSets: [String: TileserverGLStyle.Archive] = [:]
  /// Indoor venues a `POST /render` scene may show by name (`"indoor": {"venue": NAME,
  /// "level": N}`), read when the config is (config `venues`: name → IMDF folder or .zip).
  public var venues: [String: IndoorVenue] = [:]
  /// The folder of font stacks `/fonts…` serves (a tileserver-gl config's fonts folder).
  package var fontsFolder: String?
  /// TileJSON fields a tileserver-gl style entry's `tilejson` sets over Tessera's, by style id.
  package var styleTileJSON: [String: JSONObject] = [:]
  /// Hosts (with optional ports) the `tiles` URLs of TileJSON documents are spread over,
  /// one URL each (tileserver-gl's `domains`); empty: one URL from ``publicURL`` or the request.
  package var tileDomains: [String] = []
  /// Another extension vector data tiles answer to besides `pbf` (tileserver-gl's `pbfAlias`).
  package var pbfAlias: String?
  /// Whether `/` answers the index page (tileserver-gl's `frontPage`).
  public var servesFrontPage = true
  /// Whether tileserver-gl's static images `/styles/{id}/static/…` are served
  /// (`serveStaticMaps`).
  public var servesTileserverStatic = true
  /// Whether the viewer asks for `@2x` tiles on high-density screens (`leafletRetina`).
  public var viewerRetina = false

  /// What a tileserver-gl style id draws.
  public enum Style: Sendable, Equatable {
    case mapType(MapType)
    /// A MapLibre style file; its relative source URLs resolve against `dataRoot` (by
    /// default the file's folder).
    case file(path: String, dataRoot: String)
  }
  /// Styles by id for the tileserver-gl endpoints: the built-in map types by name, plus the
  /// config's `styles` (id → MapLibre style file).
  public var styles: [String: Style] = Dictionary(
    uniqueKeysWithValues: MapType.allCases.filter { $0 != .none }.map { ($0.rawValue, Style.mapType($0)) })

  public init() {}

  /// Removes the files that reading configurations wrote to the temporary folder (the resolved
  /// styles of tileserver-gl configs), as `exit` does: for a process that ends without its
  /// exit handlers. Afterwards no configuration draws its tileserver-gl styles, and reading a
  /// tileserver-gl config with styles fails.
  public static func removeTemporaryFiles() { PrivateTemporaryFolder.shared.remove() }

  /// Reads a config file: `{"listen": "HOST:PORT", "workers", "queue", "deadline", "maxWidth",
  /// "maxHeight", "maxScale", "maxBodyBytes", "connectionTimeout", "connectionLimit",
  /// "headerTimeout", "bodyTimeout", "maxConnectionsPerClient", "reusePort", "drainSeconds",
  /// "attribution", "dataRoot", "tiles", "imagery", "dem", "mapIDs", "accessLog",
  /// "tileMetatile", "tileBuffer", "tileCacheMegabytes", "sparse"}`; paths relative to the file.
  /// A tileserver-gl `config.json` (with `options` or `data`) is read as tileserver-gl reads it.
  public init(file: String) throws {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw ConfigurationError(source: file, reason: "cannot read the file")
    }
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(Array(data))
    } catch {
      throw ConfigurationError(source: file, reason: "invalid JSON at \(error)")
    }
    let root = JSONCursor(root: parsed, source: file)
    if Self.isTileserverGL(root) {
      try readTileserverGL(root, file: file)
      return
    }
    let known: Set<String> = [
      "listen", "workers", "queue", "deadline", "maxWidth", "maxHeight", "maxScale", "maxBodyBytes", "maxMarkers",
      "maxOverlays", "maxOverlayPoints",
      "connectionTimeout", "attribution", "dataRoot", "tiles", "imagery", "dem", "mapIDs", "accessLog", "styles",
      "keys", "signingSecret", "allowedHosts", "cors", "trustForwardedHeaders", "publicUrl", "iconHosts",
      "iconPrivateAddresses", "iconFolder", "venues",
      "metricsListen", "tileMetatile", "tileBuffer", "tileCacheMegabytes", "sparse", "connectionLimit",
      "headerTimeout", "bodyTimeout", "maxConnectionsPerClient", "reusePort", "drainSeconds",
    ]
    for key in try root.keys() where !known.contains(key) {
      throw ConfigurationError(source: file, reason: "unknown field '\(key)'")
    }
    let directory = (file as NSString).deletingLastPathComponent
    if let listen = try root["listen"].optionalString() { try setListen(listen) }
    if let listen = try root["metricsListen"].optionalString() {
      let (host, port) = try Self.address(listen)
      (metricsHost, metricsPort) = (host, port)
    }
    workers = try root["workers"].integer(default: workers, in: 1...256)
    queueLimit = try root["queue"].integer(default: queueLimit, in: 0...100_000)
    deadline = try root["deadline"].number(default: deadline, in: 0.1...3600)
    maxWidth = try root["maxWidth"].integer(default: maxWidth, in: 1...8192)
    maxHeight = try root["maxHeight"].integer(default: maxHeight, in: 1...8192)
    maxScale = try root["maxScale"].number(default: maxScale, in: 1...4)
    maxBodyBytes = try root["maxBodyBytes"].integer(default: maxBodyBytes, in: 1...(1 << 30))
    contentLimits.markers = try root["maxMarkers"].integer(default: contentLimits.markers, in: 0...10_000_000)
    contentLimits.overlays = try root["maxOverlays"].integer(default: contentLimits.overlays, in: 0...10_000_000)
    contentLimits.overlayPoints = try root["maxOverlayPoints"].integer(
      default: contentLimits.overlayPoints, in: 0...100_000_000)
    connectionTimeout = try root["connectionTimeout"].integer(default: connectionTimeout, in: 1...3600)
    connectionLimit = try root["connectionLimit"].integer(default: connectionLimit, in: 1...1_000_000)
    headerTimeout = try root["headerTimeout"].number(default: headerTimeout, in: 0.1...3600)
    bodyTimeout = try root["bodyTimeout"].number(default: bodyTimeout, in: 0.1...3600)
    maxConnectionsPerClient = try root["maxConnectionsPerClient"].integer(
      default: maxConnectionsPerClient, in: 0...1_000_000)
    reusePort = try root["reusePort"].bool(default: reusePort)
    drainSeconds = try root["drainSeconds"].number(default: drainSeconds, in: 0...3600)
    attribution = try root["attribution"].bool(default: attribution)
    tileMetatile = try root["tileMetatile"].integer(default: tileMetatile, in: 1...16)
    guard tileMetatile & (tileMetatile - 1) == 0 else {
      throw ConfigurationError(source: file, reason: "tileMetatile must be 1, 2, 4, 8 or 16, found \(tileMetatile)")
    }
    tileBuffer = try root["tileBuffer"].integer(default: tileBuffer, in: 0...512)
    tileCacheBytes = try root["tileCacheMegabytes"].integer(default: tileCacheBytes >> 20, in: 0...65536) << 20
    sparseTiles = try root["sparse"].bool(default: sparseTiles)
    accessLog = try root["accessLog"].bool(default: accessLog)
    if let value = try root["dataRoot"].optionalString() { dataRoot = Scene.absolutePath(value, against: directory) }
    tiles = try root["tiles"].optionalString()
    imagery = try root["imagery"].optionalString()
    dem = try root["dem"].optionalString()
    if let file = try root["keys"].optionalString() {
      let path = Scene.absolutePath(file, against: directory)
      guard let text = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }) else {
        throw ConfigurationError(source: file, reason: "cannot read the keys file \(path)")
      }
      keys = Set(
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
          !$0.isEmpty && !$0.hasPrefix("#")
        })
    }
    signingSecret = try root["signingSecret"].optionalString()
    if root["allowedHosts"].exists {
      allowedHosts = Set(try root["allowedHosts"].elements().map { try $0.string().lowercased() })
    }
    corsOrigin = try root["cors"].optionalString()
    if let text = try root["publicUrl"].optionalString() {
      do {
        publicURL = try Self.publicURL(text)
      } catch {
        throw ConfigurationError(source: file, reason: "publicUrl: \(error.reason)")
      }
    }
    if root["iconHosts"].exists {
      iconHosts = try root["iconHosts"].elements().map { element in
        do {
          return try OutboundURL(try element.string())
        } catch let error as OutboundURLError {
          throw ConfigurationError(source: file, reason: "\(element.path): \(error.reason)")
        }
      }
    }
    iconPrivateAddresses = try root["iconPrivateAddresses"].bool(default: false)
    if let folder = try root["iconFolder"].optionalString() {
      iconFolder = Scene.absolutePath(folder, against: directory)
    }
    if root["venues"].exists {
      for (name, entry) in try root["venues"].members() {
        guard Self.isStyleID(name) else {
          throw ConfigurationError(source: file, reason: "venue name '\(name)' may hold only letters, digits, - and _")
        }
        do {
          venues[name] = try IndoorVenue(imdf: try entry.string(), access: .local(directory: directory))
        } catch let error as IndoorVenueError {
          throw ConfigurationError(source: file, reason: "venues.\(name): \(error)")
        }
      }
    }
    trustsForwardedHeaders = try root["trustForwardedHeaders"].bool(default: false)
    if root["styles"].exists {
      for (id, value) in try root["styles"].members() {
        guard id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), !id.isEmpty else {
          throw ConfigurationError(source: file, reason: "style id '\(id)' may hold only letters, digits, - and _")
        }
        // "id": "style.json" or {"style": "style.json", "dataRoot": "folder"}
        let named = value.value?.string != nil ? value : value["style"]
        let path = Scene.absolutePath(try named.string(), against: directory)
        guard FileManager.default.fileExists(atPath: path) else {
          throw ConfigurationError(source: file, reason: "style '\(id)': no file \(path)")
        }
        let root = try value.value?.string == nil ? value["dataRoot"].optionalString() : nil
        styles[id] = .file(
          path: path,
          dataRoot: root.map { Scene.absolutePath($0, against: directory) }
            ?? (path as NSString).deletingLastPathComponent)
      }
    }
    if let value = try root["mapIDs"].optionalString() {
      mapIDs = try MapIDRegistry(path: Scene.absolutePath(value, against: directory))
    }
  }

  /// A public URL in the form links start with: an http(s) URL in canonical spelling without
  /// a trailing slash, query or fragment.
  package static func publicURL(_ text: String) throws(OutboundURLError) -> String {
    let url = try OutboundURL(text)
    guard url.query == nil, !text.contains("#") else {
      throw OutboundURLError(url: text, reason: "a public URL has no query or fragment")
    }
    var canonical = url.description
    while canonical.hasSuffix("/") { canonical.removeLast() }
    return canonical
  }

  /// `HOST:PORT` (IPv6 in brackets).
  public mutating func setListen(_ text: String) throws {
    (host, port) = try Self.address(text)
  }

  static func address(_ text: String) throws -> (String, UInt16) {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
      throw ConfigurationError(source: "listen", reason: "expected HOST:PORT, found '\(text)'")
    }
    return (String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
  }

  /// `message` with the server's own folders (the data root, style files, the icon folder, the
  /// working folder) replaced by placeholders: answers never show where the server keeps
  /// its files.
  func publicMessage(_ message: String) -> String {
    var folders: [(String, String)] = [(dataRoot, "<data>"), (FileManager.default.currentDirectoryPath, "<server>")]
    if let iconFolder { folders.append((iconFolder, "<icons>")) }
    for (id, style) in styles {
      if case .file(let path, let root) = style {
        folders.append((path, "<style \(id)>"))
        folders.append((root, "<style \(id) data>"))
        folders.append(((path as NSString).deletingLastPathComponent, "<style \(id) folder>"))
      }
    }
    var result = message
    // Longest first, so a folder inside another is replaced whole.
    for (folder, placeholder) in folders.sorted(by: { $0.0.count > $1.0.count }) where folder.count > 1 {
      result = result.replacingOccurrences(of: folder, with: placeholder)
    }
    return result
  }

  /// What icon URLs a request names may reach.
  var iconPolicy: OutboundPolicy {
    OutboundPolicy(allowed: iconHosts, allowsPrivateAddresses: iconPrivateAddresses)
  }

  /// The name requests' scenes go by in messages: no server path, so an answer never shows
  /// where the server keeps its files.
  static let requestName = "request"

  /// The data the built-in map types draw.
  var mapData: MapData {
    var data = MapData(imagery: imagery, dem: dem, dataRoot: dataRoot)
    if let tiles { data.tiles = tiles }
    return data
  }

  /// Gives a scene read from a request (with inline-only access, so it names no data of its
  /// own) the server's data: the map types' sources and map IDs, and `style` when the request
  /// asks for a configured style. Typed, after reading: nothing a request writes can name them.
  func applyServerData(to scene: inout Scene, style: Style? = nil) {
    scene.dataRoot = dataRoot
    scene.options.data = mapData
    scene.options.mapIDs = mapIDs
    scene.options.tileLoadTimeout = deadline
    scene.options.contentLimits = contentLimits
    switch style {
    case .mapType(let type)?:
      scene.options.mapType = type
    case .file(let path, let root)?:
      scene.stylePath = path
      scene.dataRoot = root
    case nil:
      break
    }
  }
}

public struct ConfigurationError: Error, CustomStringConvertible {
  public let source: String
  public let reason: String
  public var description: String { "\(source): \(reason)" }
}
