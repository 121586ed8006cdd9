import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// tileserver-gl's elevation queries on raster-dem data: `/data/{id}/elevation/{z}/{x}/{y}`.
/// With whole `x` and `y` the point is the south-west corner of tile z/x/y (as tileserver-gl
/// answers); with a decimal point in either, `x` is a longitude and `y` a latitude in
/// degrees, read from the tile of zoom `z` (kept inside the data's zooms) that holds them.
/// The answer is JSON: `z`, `x`, `y` (the tile read), `red`, `green`, `blue` (the pixel),
/// `latitude`, `longitude` and `elevation` (metres, decoded with the data's encoding).
extension ServiceRouter {
  /// The largest DEM tile decoded for a query, pixels.
  static let largestElevationTile = 1024 * 1024

  func elevation(_ request: HTTPRequest, parts: [String]) throws(ServiceError) -> HTTPResponse {
    let id = parts[1]
    guard let source = try dataSource(id), let archive = configuration.dataSets[id] else {
      return .text(404, "no data '\(id)'")
    }
    let metadata = source.metadata
    guard let encoding = archive.encoding ?? metadata.encoding else {
      return .text(400, "data '\(id)' is not elevation data: its entry has no 'encoding' (terrarium or mapbox)")
    }
    guard metadata.format == .png || metadata.format == .webp else {
      return .text(
        400, "data '\(id)' holds \(Self.extensionName(metadata.format)) tiles; elevation is read from png or webp")
    }
    guard let zoom = Int(parts[3]), (0...30).contains(zoom) else {
      return .text(400, "the zoom must be a whole number 0…30, found '\(HeaderText.clean(parts[3]))'")
    }
    let isPoint = parts[4].contains(".") || parts[5].contains(".")
    let tile: TileID
    let coordinate: Coordinate
    if isPoint {
      guard let longitude = Double(parts[4]), let latitude = Double(parts[5]), (-180...180).contains(longitude),
        (-Mercator.maxLatitude...Mercator.maxLatitude).contains(latitude)
      else {
        return .text(400, "a point is {longitude}/{latitude} in degrees, latitude within ±85.0511")
      }
      let z = min(max(zoom, metadata.minZoom), metadata.maxZoom)
      coordinate = Coordinate(latitude: latitude, longitude: longitude)
      let world = Mercator.project(coordinate, zoom: Double(z))
      let last = (1 << z) - 1
      guard
        let found = TileID(
          checkedZ: z, x: min(Int(clamping: world.x / 256), last), y: min(Int(clamping: world.y / 256), last))
      else { return .text(400, "no tile at zoom \(z) holds the point") }
      tile = found
    } else {
      guard let x = Int(parts[4]), let y = Int(parts[5]) else {
        return .text(400, "tile coordinates must be whole numbers, or a longitude and latitude with a decimal point")
      }
      guard (metadata.minZoom...max(metadata.minZoom, metadata.maxZoom)).contains(zoom),
        let found = TileID(checkedZ: zoom, x: x, y: y)
      else { return .text(404, "tile \(zoom)/\(x)/\(y) is outside data '\(id)'") }
      tile = found
      // The tile's south-west corner.
      coordinate = Mercator.unproject(WorldPoint(x: Double(x) * 256, y: Double(y + 1) * 256), zoom: Double(zoom))
    }
    let bytes: [UInt8]
    do {
      guard case .data(let stored) = try source.fetch(tile), !stored.isEmpty else { return HTTPResponse(status: 204) }
      bytes = stored
    } catch {
      Self.logWarning("data '\(id)': \(error)")
      return .text(500, "the tile cannot be read; the server's log says why")
    }
    let image: RGBAImage
    do {
      image = try ImageCodec.decode(
        bytes, source: "data '\(id)' tile \(tile.z)/\(tile.x)/\(tile.y)",
        limits: DecodeLimits(maxPixels: Self.largestElevationTile))
    } catch {
      Self.logWarning("data '\(id)': \(error)")
      return .text(500, "the tile cannot be decoded; the server's log says why")
    }
    // The pixel holding the point: its position in the tile, scaled to the image.
    let world = Mercator.project(coordinate, zoom: Double(tile.z))
    let column = min(max(Int(clamping: (world.x / 256 - Double(tile.x)) * Double(image.width)), 0), image.width - 1)
    let row = min(max(Int(clamping: (world.y / 256 - Double(tile.y)) * Double(image.height)), 0), image.height - 1)
    let index = (row * image.width + column) * 4
    let pixels = image.straightAlpha().pixels
    let (red, green, blue) = (Double(pixels[index]), Double(pixels[index + 1]), Double(pixels[index + 2]))
    let elevation = encoding.height(red: red, green: green, blue: blue)
    let answer: JSONObject = [
      "z": .number(Double(tile.z)), "x": .number(Double(tile.x)), "y": .number(Double(tile.y)),
      "red": .number(red), "green": .number(green), "blue": .number(blue),
      "latitude": .number(coordinate.latitude), "longitude": .number(coordinate.longitude),
      "elevation": .number((elevation * 100).rounded() / 100),
    ]
    return Self.imageResponse(
      Array(JSONValue.object(answer).serialized().utf8), mimeType: "application/json",
      ifNoneMatch: request.header("If-None-Match"))
  }
}
