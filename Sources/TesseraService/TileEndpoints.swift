import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// tileserver-gl's raster tile endpoints: `/styles/{id}/{z}/{x}/{y}[@2x|@3x|@4x].{png|jpg|webp}`
/// (256-point tiles) and `/styles/{id}/512/{z}/{x}/{y}…` (512-point tiles), the TileJSON at
/// `/styles/{id}.json` (`/styles/512/{id}.json`), WMTS capabilities at
/// `/styles/{id}/wmts.xml` and `/index.json`. Tiles are cut from metatiles (``TileRenderer``):
/// no label is cut at a tile edge, and the tiles of one metatile asked for at once are
/// rendered once (``MetatileCache``). Beyond the data's deepest zoom tiles are overzoomed;
/// outside the data's bounds they are answered 204, or 404 with `"sparse": true`.
extension ServiceRouter {
  /// A raster tile request read from its path.
  struct TileAddress {
    let styleID: String
    let tile: TileID
    let tileSize: Int
    let scale: Int
    let format: ImageFormat
  }

  /// Parses `/styles/{id}[/512]/{z}/{x}/{y}[@Nx].{format}`; nil when the path is not a tile's.
  static func tileAddress(_ path: String) throws(ServiceError) -> TileAddress? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    guard parts.first == "styles", parts.count == 5 || (parts.count == 6 && (parts[2] == "256" || parts[2] == "512"))
    else { return nil }
    let tileSize = parts.count == 6 ? Int(parts[2])! : 256
    let numbers = parts.suffix(3)
    let last = numbers.last!
    guard let dot = last.lastIndex(of: ".") else { return nil }
    var row = String(last[..<dot])
    let formatName = String(last[last.index(after: dot)...])
    var scale = 1
    if let at = row.firstIndex(of: "@") {
      let factor = row[row.index(after: at)...]
      guard factor.hasSuffix("x"), let value = Int(factor.dropLast()), (2...4).contains(value) else {
        throw ServiceError(status: 400, reason: "scale must be @2x, @3x or @4x, found '\(factor)'")
      }
      scale = value
      row = String(row[..<at])
    }
    guard let z = Int(numbers[numbers.startIndex]), let x = Int(numbers[numbers.startIndex + 1]), let y = Int(row)
    else { return nil }
    guard let format = ImageFormat(name: formatName), format != .gif else {
      throw ServiceError(status: 400, reason: "tile format must be png, jpg or webp, found '\(formatName)'")
    }
    let maxZoom = tileSize == 512 ? 21 : 22
    guard (0...maxZoom).contains(z), let tile = TileID(checkedZ: z, x: x, y: y) else {
      throw ServiceError(status: 404, reason: "tile \(z)/\(x)/\(y) is outside the pyramid (zooms 0…\(maxZoom))")
    }
    return TileAddress(styleID: parts[1], tile: tile, tileSize: tileSize, scale: scale, format: format)
  }

  /// The tile set a style id draws at a tile size and scale.
  func tileSet(_ style: ServiceConfiguration.Style, tileSize: Int, scale: Int) throws(ServiceError) -> TileJob.TileSet {
    var options = MapOptions(width: 256, height: 256)
    options.attribution = .off
    var scene = Scene(options: options, name: ServiceConfiguration.requestName)
    configuration.applyServerData(to: &scene, style: style)
    return TileJob.TileSet(
      template: scene.options, stylePath: scene.stylePath, dataRoot: scene.stylePath == nil ? nil : scene.dataRoot,
      settings: TileRenderer.Settings(
        tileSize: tileSize, scale: scale, metatile: configuration.tileMetatile, buffer: configuration.tileBuffer))
  }

  /// A style's credits, bounds and deepest data zoom, read once per router.
  func description(of id: String, _ set: TileJob.TileSet) -> TileJob.TileSet.Description {
    if let known = descriptions.withLock({ $0[id] }) { return known }
    let described = (try? set.describe()) ?? TileJob.TileSet.Description()
    descriptions.withLock { $0[id] = described }
    return described
  }

  /// Answers a raster tile request.
  func serveTile(_ request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void) {
    let address: TileAddress
    let set: TileJob.TileSet
    do {
      guard let parsed = try Self.tileAddress(request.path) else {
        answer(.text(404, "no such endpoint: \(request.path)"))
        return
      }
      address = parsed
      guard let style = configuration.styles[address.styleID] else {
        answer(.text(404, "no style '\(address.styleID)'"))
        return
      }
      guard Double(address.scale) <= configuration.maxScale else {
        answer(
          .text(400, "scale @\(address.scale)x is above the largest served, @\(Int(clamping: configuration.maxScale))x")
        )
        return
      }
      set = try tileSet(style, tileSize: address.tileSize, scale: address.scale)
    } catch {
      answer(.text(error.status, error.reason))
      return
    }
    // Outside the data: nothing to draw.
    if let bounds = description(of: address.styleID, set).bounds, !Self.tile(address.tile, meets: bounds) {
      answer(
        configuration.sparseTiles
          ? .text(404, "tile \(address.tile) lies outside the data") : HTTPResponse(status: 204))
      return
    }
    guard let admission = admit("tile", answer: answer) else { return }
    let ifNoneMatch = request.header("If-None-Match")
    let lastModified = Self.httpDate(counters.startedAt)
    let metatile = Metatile(containing: address.tile, size: set.settings.metatile)
    let key = "\(address.styleID)|\(address.tileSize)|\(address.scale)|\(metatile)"
    let metrics = self.metrics
    let deliver: MetatileCache.Waiter = { result in
      defer { admission.finish() }
      switch result {
      case .success(let tiles):
        do {
          guard let image = tiles[address.tile] else { throw ServiceError(status: 500, reason: "tile missing") }
          answer(
            Self.imageResponse(
              try ImageCodec.encode(image, as: address.format), mimeType: address.format.mimeType,
              headers: [("Last-Modified", lastModified)], ifNoneMatch: ifNoneMatch))
        } catch {
          answer(.text(500, "the tile could not be encoded: \(error)"))
        }
      case .failure(let error):
        answer(.text(500, "\(error)".replacingOccurrences(of: "\n", with: " ")))
      }
    }
    switch metatiles.lookup(key, waiter: deliver) {
    case .cached(let tiles):
      metrics.tileServed(cached: true)
      deliver(.success(tiles))
    case .joined:
      metrics.tileServed(cached: true)
    case .render:
      metrics.tileServed(cached: false)
      let cache = metatiles
      // The style files the job reads stay until it is done (a reload may replace them).
      let styleFiles = configuration.resolvedStyles
      pool.submit(TileJob(set: set, metatile: metatile)) { result in
        withExtendedLifetime(styleFiles) {
          metrics.rendered(failed: (try? result.get()) == nil)
          cache.finish(key, with: result)
        }
      }
    }
  }

  /// Whether a tile's box meets the bounds.
  static func tile(_ tile: TileID, meets bounds: CoordinateBounds) -> Bool {
    let n = Double(1 << tile.z)
    let west = Double(tile.x) / n * 360 - 180
    let east = Double(tile.x + 1) / n * 360 - 180
    let north = Mercator.unproject(WorldPoint(x: 0, y: Double(tile.y)), worldSize: n).latitude
    let south = Mercator.unproject(WorldPoint(x: 0, y: Double(tile.y + 1)), worldSize: n).latitude
    return west < bounds.east && east > bounds.west && south < bounds.north && north > bounds.south
  }

  /// An HTTP date (RFC 7231), as `Last-Modified` carries it.
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  /// The base URL links are written with (the client's host, behind a trusted proxy its
  /// forwarded host and scheme).
  /// What links start with: the configured public URL; else `scheme://host` when the
  /// request's host is an allowed one; else nothing (links are relative). The `Host` header is
  /// never written back unless it is in `allowedHosts`.
  func baseURL(_ request: HTTPRequest) -> String {
    if let publicURL = configuration.publicURL { return publicURL }
    guard let allowed = configuration.allowedHosts, let host = host(of: request)?.lowercased(),
      Self.isHostName(host), allowed.contains(host) || allowed.contains(Self.bareHost(host))
    else { return "" }
    let forwarded = configuration.trustsForwardedHeaders ? request.header("X-Forwarded-Proto")?.lowercased() : nil
    let scheme = forwarded == "https" ? "https" : "http"
    return "\(scheme)://\(host)"
  }

  /// The `tiles` URLs of a TileJSON document for `path` (from `/`): one per configured domain
  /// (tileserver-gl's `domains`, in the request's scheme) unless a public URL is set, else one
  /// from ``baseURL(_:)``.
  func tileURLs(_ path: String, request: HTTPRequest) -> JSONValue {
    guard configuration.publicURL == nil, !configuration.tileDomains.isEmpty else {
      return [.string(baseURL(request) + path)]
    }
    let forwarded = configuration.trustsForwardedHeaders ? request.header("X-Forwarded-Proto")?.lowercased() : nil
    let scheme = forwarded == "https" ? "https" : "http"
    return .array(configuration.tileDomains.map { .string("\(scheme)://\($0)\(path)") })
  }

  /// Headers of answers holding links: when links may name the request's host, caches are told
  /// the answer varies with it.
  var linkHeaders: [(String, String)] {
    configuration.publicURL == nil && configuration.allowedHosts != nil
      ? [("Vary", "Host, X-Forwarded-Host, X-Forwarded-Proto")] : []
  }

  /// Whether `text` is a host name or address with an optional port, and nothing else.
  static func isHostName(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= 255
      && text.unicodeScalars.allSatisfy {
        ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
          || ".-:[]_".unicodeScalars.contains($0)
      }
  }

  /// `host:port` without its port.
  static func bareHost(_ host: String) -> String {
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[...close]) }
    return host.split(separator: ":").first.map(String.init) ?? host
  }

  /// The TileJSON of a style's raster tiles.
  func tileJSON(_ id: String, tileSize: Int, request: HTTPRequest) throws(ServiceError) -> JSONObject {
    guard let style = configuration.styles[id] else { throw ServiceError(status: 404, reason: "no style '\(id)'") }
    let set = try tileSet(style, tileSize: tileSize, scale: 1)
    let described = description(of: id, set)
    let bounds = described.bounds
    let box = [
      bounds?.west ?? -180, bounds?.south ?? -85.051_128_78, bounds?.east ?? 180, bounds?.north ?? 85.051_128_78,
    ]
    let prefix = tileSize == 512 ? "/512" : ""
    // The style's own centre and zoom when it has them (its zoom counts 512-point tiles).
    let center: [Double] =
      if let point = described.center {
        [point.longitude, point.latitude, (described.zoom ?? 2) + (tileSize == 512 ? 0 : 1)]
      } else {
        [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 2]
      }
    var object: JSONObject = [
      "tilejson": "2.0.0", "name": .string(id), "id": .string(id), "scheme": "xyz", "format": "png",
      "type": "baselayer", "minzoom": 0, "maxzoom": .number(Double(set.settings.maxZoom)),
      "tileSize": .number(Double(tileSize)),
      "bounds": .array(box.map { .number($0) }),
      "center": .array(center.map { .number($0) }),
      "tiles": tileURLs("/styles/\(id)\(prefix)/{z}/{x}/{y}.png", request: request),
    ]
    if let attribution = described.attribution { object["attribution"] = .string(attribution) }
    for (key, value) in (configuration.styleTileJSON[id] ?? [:]).pairs { object[key] = value }
    return object
  }

  /// `/styles/{id}.json`, `/styles/512/{id}.json` and `/index.json`.
  func serveTileJSON(_ request: HTTPRequest) -> HTTPResponse {
    do {
      if ["/index.json", "/rendered.json", "/data.json"].contains(request.path) {
        var entries: [JSONValue] = []
        if request.path != "/data.json" {
          entries += try configuration.styles.keys.sorted().map { id throws(ServiceError) in
            JSONValue.object(try tileJSON(id, tileSize: 256, request: request))
          }
        }
        if request.path != "/rendered.json" {
          entries += try configuration.dataSets.keys.sorted().map { id throws(ServiceError) in
            JSONValue.object(try dataTileJSON(id, request: request))
          }
        }
        var answer = HTTPResponse.json(.array(entries))
        answer.headers += linkHeaders
        return answer
      }
      let parts = request.path.split(separator: "/").map(String.init)
      let file = parts.last!
      let id = String(file.dropLast(".json".count))
      var answer = HTTPResponse.json(
        .object(try tileJSON(id, tileSize: parts.count == 3 ? 512 : 256, request: request)))
      answer.headers += linkHeaders
      return answer
    } catch {
      return .text(error.status, error.reason)
    }
  }

  /// `/styles/{id}/wmts.xml`: OGC WMTS 1.0 capabilities of a style's 256-point tiles in the
  /// GoogleMapsCompatible tile matrix set.
  func serveWMTS(_ request: HTTPRequest) -> HTTPResponse {
    let id = String(request.path.split(separator: "/")[1])
    guard configuration.styles[id] != nil else { return .text(404, "no style '\(id)'") }
    let base = baseURL(request)
    var matrices = ""
    for z in 0...22 {
      let scale = 559_082_264.028_717_2 / Double(1 << z)
      matrices += """
            <TileMatrix><ows:Identifier>\(z)</ows:Identifier><ScaleDenominator>\(scale)</ScaleDenominator>\
        <TopLeftCorner>-20037508.34278925 20037508.34278925</TopLeftCorner><TileWidth>256</TileWidth>\
        <TileHeight>256</TileHeight><MatrixWidth>\(1 << z)</MatrixWidth><MatrixHeight>\(1 << z)</MatrixHeight></TileMatrix>

        """
    }
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" \
      xmlns:xlink="http://www.w3.org/1999/xlink" version="1.0.0">
        <ows:ServiceIdentification><ows:Title>\(id)</ows:Title><ows:ServiceType>OGC WMTS</ows:ServiceType>\
      <ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion></ows:ServiceIdentification>
        <Contents>
          <Layer>
            <ows:Title>\(id)</ows:Title><ows:Identifier>\(id)</ows:Identifier>
            <ows:WGS84BoundingBox><ows:LowerCorner>-180 -85.051128779806</ows:LowerCorner>\
      <ows:UpperCorner>180 85.051128779806</ows:UpperCorner></ows:WGS84BoundingBox>
            <Style isDefault="true"><ows:Identifier>default</ows:Identifier></Style>
            <Format>image/png</Format>
            <TileMatrixSetLink><TileMatrixSet>GoogleMapsCompatible</TileMatrixSet></TileMatrixSetLink>
            <ResourceURL format="image/png" resourceType="tile" \
      template="\(base)/styles/\(id)/{TileMatrix}/{TileCol}/{TileRow}.png"/>
          </Layer>
          <TileMatrixSet>
            <ows:Identifier>GoogleMapsCompatible</ows:Identifier>
            <ows:SupportedCRS>urn:ogc:def:crs:EPSG::3857</ows:SupportedCRS>
            <WellKnownScaleSet>urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible</WellKnownScaleSet>
      \(matrices)    </TileMatrixSet>
        </Contents>
      </Capabilities>

      """
    return HTTPResponse(
      status: 200, headers: [("Content-Type", "application/xml")] + linkHeaders, body: Array(xml.utf8))
  }
}
