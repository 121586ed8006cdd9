import Foundation
import Tessera
import TesseraImage
import TesseraNumbers

/// tileserver-gl's static image URLs: `/styles/{id}/static/{lon},{lat},{zoom}[@{bearing}[,{pitch}]]/{w}x{h}[@2x].{format}`,
/// the bounding-box form `{minx},{miny},{maxx},{maxy}` and `auto` (fit to `path` and
/// `marker`), with the query options `path` (`lng,lat|lng,lat…`, optional `stroke:`,
/// `width:`, `fill:` prefixes), `marker` (`lng,lat`), `padding` (a share of the size) and
/// `maxzoom`. Zooms are MapLibre's (a 512-point world): Google zoom = zoom + 1, so the same URL
/// shows what tileserver-gl shows.
struct TileserverQuery {
  /// The query options this reader reads (from the URL or a POST body).
  static let options: Set<String> = ["path", "marker", "padding", "maxzoom"]

  var scene: Scene
  var format: ImageEncoding
  /// Options asked for that are not drawn, one message each.
  var warnings: [String] = []

  /// `components` follow `/styles/{id}/static/`: `[camera, size]`.
  init(
    style: ServiceConfiguration.Style, camera: String, size: String, request: HTTPRequest,
    configuration: ServiceConfiguration
  ) throws(ServiceError) {
    func bad(_ reason: String) -> ServiceError { ServiceError(status: 400, reason: reason) }
    // Size: WxH[@2x].format
    guard let dot = size.lastIndex(of: "."),
      let parsedFormat = ImageFormat(name: String(size[size.index(after: dot)...]))
    else { throw bad("expected {width}x{height}[@2x].{png|jpg|webp|gif}, found '\(size)'") }
    format = ImageEncoding(parsedFormat)
    var dimensions = String(size[..<dot])
    var scale = 1.0
    if let at = dimensions.firstIndex(of: "@") {
      let factor = dimensions[dimensions.index(after: at)...]
      guard factor.hasSuffix("x"), let value = Double(factor.dropLast()), [1.0, 2, 3, 4].contains(value),
        value <= configuration.maxScale
      else { throw bad("scale must be @2x (up to @\(Int(clamping: configuration.maxScale))x), found '\(factor)'") }
      scale = value
      dimensions = String(dimensions[..<at])
    }
    let sides = dimensions.split(separator: "x").map { Int($0) }
    guard sides.count == 2, let width = sides[0], let height = sides[1], width > 0, height > 0,
      width <= configuration.maxWidth, height <= configuration.maxHeight
    else {
      throw bad(
        "size must be {width}x{height} within \(configuration.maxWidth)x\(configuration.maxHeight), found '\(dimensions)'"
      )
    }
    for name in Set(request.arguments.map(\.key)).subtracting(Self.options).sorted().prefix(8) {
      warnings.append("option '\(HeaderText.clean(String(name.prefix(40))))' is not supported; ignored")
    }
    var options = MapOptions(width: Double(width), height: Double(height), scale: scale)
    if !configuration.attribution { options.attribution = .off }
    // Overlays from the query, given to the scene as values.
    var paths: [MapOverlay] = []
    var (lines, areas) = (0, 0)
    var visible: [Coordinate] = []
    for text in request.values("path") {
      var color = "rgba(0, 64, 255, 0.67)"
      var lineWidth = 1.0
      var fill: String?
      var points: [Coordinate] = []
      for part in text.split(separator: "|").map(String.init) {
        let pieces = part.split(separator: ":", maxSplits: 1).map(String.init)
        if pieces.count == 2, ["stroke", "width", "fill"].contains(pieces[0]) {
          switch pieces[0] {
          case "stroke": color = pieces[1]
          case "fill": fill = pieces[1]
          default:
            guard let value = Double(pieces[1]), value >= 0, value <= 1000 else {
              throw bad("path width must be points")
            }
            lineWidth = value
          }
          continue
        }
        let numbers = part.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 2, numbers.allSatisfy(\.isFinite), abs(numbers[1]) <= 90 else {
          throw bad("path points are lng,lat pairs, found '\(part)'")
        }
        points.append(Coordinate(latitude: numbers[1], longitude: numbers[0]))
      }
      guard points.count >= 2 else { throw bad("a path needs at least two points") }
      visible += points
      // Refused as the scene reader refuses the same entry, with its message.
      let field =
        "\(ServiceConfiguration.requestName): \(fill == nil ? "polylines" : "polygons")[\(fill == nil ? lines : areas)]"
      if let far = points.firstIndex(where: { abs($0.longitude) > OverlayCheck.maximumLongitude }) {
        throw bad(
          "\(field).path[\(far)]: expected [latitude, longitude] with latitude in −90…90 and longitude in ±3600")
      }
      func parsed(_ text: String, _ key: String) throws(ServiceError) -> Color {
        guard let color = try? Color(css: text) else { throw bad("\(field).\(key): invalid colour '\(text)'") }
        return color
      }
      if let fill {
        let polygon = Polygon(path: points)
        polygon.fillColor = try parsed(fill, "fillColor")
        polygon.strokeColor = try parsed(color, "strokeColor")
        polygon.strokeWidth = lineWidth
        paths.append(polygon)
        areas += 1
      } else {
        let polyline = Polyline(path: points)
        polyline.strokeColor = try parsed(color, "color")
        polyline.strokeWidth = lineWidth
        paths.append(polyline)
        lines += 1
      }
    }
    var markers: [Marker] = []
    for text in request.values("marker") {
      let numbers = (text.split(separator: "|").first ?? "").split(separator: ",").compactMap { Double($0) }
      guard numbers.count == 2, numbers.allSatisfy(\.isFinite), abs(numbers[1]) <= 90 else {
        throw bad("marker is lng,lat, found '\(text)'")
      }
      let position = Coordinate(latitude: numbers[1], longitude: numbers[0])
      markers.append(Marker(position: position))
      visible.append(position)
    }
    // Camera.
    // Empty pieces are kept: `@`, `15@`, `@30` and `-74,,40` are malformed, not shortened.
    let parts = camera.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let numbers = parts[0].split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
    var bearing = 0.0
    var pitch = 0.0
    if parts.count == 2 {
      let angles = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
      guard (1...2).contains(angles.count), angles.allSatisfy({ $0 != nil }) else {
        throw bad("expected @{bearing}[,{pitch}], found '@\(parts[1])'")
      }
      bearing = angles[0]!
      pitch = angles.count == 2 ? angles[1]! : 0
      guard (0...85).contains(pitch) else { throw bad("pitch must be 0…85") }
    }
    // tileserver-gl's fit: `padding` a share of the smaller side (default 0.1), `maxzoom`
    // (MapLibre) capping it, the exact zoom rather than a whole one.
    var fit = Scene.Fit(wholeZoom: false)
    if let text = request.value("padding") {
      guard let share = Double(text), (0...0.5).contains(share) else { throw bad("padding is a share in 0…0.5") }
      fit.padding = share * Double(min(width, height))
    } else {
      fit.padding = 0.1 * Double(min(width, height))
    }
    if let text = request.value("maxzoom") {
      guard let zoom = Double(text), (0...21).contains(zoom) else { throw bad("maxzoom is a zoom in 0…21") }
      fit.maxZoom = zoom + 1
    }
    let name = ServiceConfiguration.requestName
    var fitted: [Coordinate]?
    var placed: (latitude: Double, longitude: Double, zoom: Double)?
    if parts[0] == "auto" {
      guard !visible.isEmpty else { throw bad("auto needs a path or a marker to fit") }
      fitted = visible
    } else if numbers.count == 3, let lon = numbers[0], let lat = numbers[1], let zoom = numbers[2], abs(lat) <= 90,
      (0...23).contains(zoom)
    {
      placed = (lat, lon, zoom + 1)
    } else if numbers.count == 4, numbers.allSatisfy({ $0 != nil }) {
      let (west, south, east, north) = (numbers[0]!, numbers[1]!, numbers[2]!, numbers[3]!)
      guard abs(south) <= 90, abs(north) <= 90, south < north else { throw bad("bounds are minx,miny,maxx,maxy") }
      fitted = [Coordinate(latitude: south, longitude: west), Coordinate(latitude: north, longitude: east)]
      fit.padding = 0
    } else {
      throw bad("expected {lon},{lat},{zoom}, {minx},{miny},{maxx},{maxy} or auto, found '\(parts[0])'")
    }
    scene = Scene(options: options, dataRoot: "", name: name)
    scene.path = name
    scene.access = .inlineOnly()
    do {
      if let placed {
        try scene.placeCamera(
          latitude: placed.latitude, longitude: placed.longitude, zoom: placed.zoom, bearing: bearing,
          viewingAngle: pitch)
      } else if let fitted {
        try scene.fitCamera(showing: fitted, fit: fit)
      }
    } catch {
      throw bad("\(error)")
    }
    scene.markers = markers
    configuration.applyServerData(to: &scene, style: style)
    scene.overlays = OverlayKinds.inReadingOrder(paths)
  }
}
