import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// The scene fields of overlays beyond lines, areas and circles:
/// - polylines' `"spans": [{"color" | "gradient": [FROM, TO] | "stamp": PNG, "segments": N}]`,
///   `"dashes": {"colors": [CSS, …], "lengths": [METRES, …], "kind": "geodesic"|"rhumb"|"projected"}`
///   (GMSStyleSpans) and `"pattern": ["dash:PT", "gap:PT", "dot", …]`;
/// - `"groundOverlays": [{"image": PATH, "bounds": [S, W, N, E]} or {"image", "position": [LAT, LNG],
///   "zoomLevel": Z, "anchor": [X, Y]}, with "bearing", "opacity", "zIndex"]`;
/// - `"tileOverlays": [{"source": TEMPLATE_OR_URL, "tileSize": 256, "opacity", "zIndex"}]`;
/// - `"heatmaps": [{"points": [[LAT, LNG, WEIGHT?], …] | "geojson": PATH, "weightProperty": "weight",
///   "radius", "gradient": [[DENSITY, CSS], …], "opacity", "intensity", "zIndex"}]`;
/// - `"geojsonOverlays": [{"geojson": PATH, "zIndex"}]`: every line and area of a GeoJSON file
///   as a polyline or polygon, coloured by its simplestyle properties (`stroke`,
///   `stroke-width`, `stroke-opacity`, `fill`, `fill-opacity`);
/// - `"myLocation": {"position": [LAT, LNG], "accuracy": METRES, "heading": DEGREES}`.
/// Files are read through the scene's ``ResourceAccess`` (relative to the scene file when it
/// reaches files).
extension SceneOverlays {
  static func spans(_ cursor: JSONCursor, path: [Coordinate], access: ResourceAccess) throws -> [StyleSpan] {
    var spans: [StyleSpan] = []
    if !cursor["spans"].isAbsentOrNull {
      for element in try cursor["spans"].elements() {
        let segments = try element["segments"].number(default: 1, in: 1e-9...1e9)
        if let color = try color(element["color"]) {
          spans.append(StyleSpan(color: color, segments: segments))
        } else if !element["gradient"].isAbsentOrNull {
          let colors = try element["gradient"].elements().map { try color($0) }
          guard colors.count == 2, let from = colors[0], let to = colors[1] else {
            throw MarkerError(
              source: "\(element.source): \(element.path).gradient", reason: "expected [FROM, TO] colours")
          }
          spans.append(StyleSpan(style: .gradient(from: from, to: to), segments: segments))
        } else if let stamp = try element["stamp"].optionalString() {
          let image = try picture(stamp, access: access, field: element["stamp"])
          spans.append(StyleSpan(style: .stamp(image), segments: segments))
        } else {
          throw MarkerError(
            source: "\(element.source): \(element.path)", reason: "a span needs \"color\", \"gradient\" or \"stamp\"")
        }
      }
    }
    let dashes = cursor["dashes"]
    if !dashes.isAbsentOrNull {
      let styles = try dashes["colors"].elements().map { element -> StrokeStyle in
        guard let color = try color(element) else {
          throw MarkerError(source: "\(element.source): \(element.path)", reason: "expected a colour")
        }
        return .solid(color)
      }
      let lengths = try dashes["lengths"].elements().map { try $0.number(in: 0...1e8) }
      guard !styles.isEmpty, lengths.contains(where: { $0 > 0 }) else {
        throw MarkerError(
          source: "\(dashes.source): \(dashes.path)", reason: "expected colours and lengths with one above 0")
      }
      let kinds: [String: StyleSpan.LengthKind] = ["geodesic": .geodesic, "rhumb": .rhumb, "projected": .projected]
      let kindName = try dashes["kind"].optionalString() ?? "geodesic"
      guard let kind = kinds[kindName] else {
        throw MarkerError(
          source: "\(dashes.source): \(dashes.path).kind", reason: "expected geodesic, rhumb or projected")
      }
      spans += StyleSpan.repeating(path: path, styles: styles, lengths: lengths, kind: kind)
    }
    return spans
  }

  static func pattern(_ cursor: JSONCursor) throws -> [PatternItem] {
    guard !cursor.isAbsentOrNull else { return [] }
    return try cursor.elements().map { element in
      let text = try element.string()
      if text == "dot" { return .dot }
      let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
      guard parts.count == 2, let length = Double(parts[1]), length.isFinite, (0...10_000).contains(length),
        parts[0] == "dash" || parts[0] == "gap"
      else {
        throw MarkerError(
          source: "\(element.source): \(element.path)", reason: "expected \"dash:POINTS\", \"gap:POINTS\" or \"dot\"")
      }
      return parts[0] == "dash" ? .dash(length) : .gap(length)
    }
  }

  static func groundOverlays(_ cursor: JSONCursor, access: ResourceAccess) throws -> [MapOverlay] {
    guard !cursor.isAbsentOrNull else { return [] }
    return try cursor.elements().map { element in
      let image = try picture(try element["image"].string(), access: access, field: element["image"])
      let overlay: GroundOverlay
      if !element["bounds"].isAbsentOrNull {
        let box = try element["bounds"].elements().map { try $0.number() }
        guard box.count == 4, box.allSatisfy(\.isFinite), box[0] < box[2], abs(box[0]) <= 90, abs(box[2]) <= 90 else {
          throw MarkerError(
            source: "\(element.source): \(element.path).bounds", reason: "expected [south, west, north, east]")
        }
        overlay = GroundOverlay(
          bounds: CoordinateBounds(south: box[0], west: box[1], north: box[2], east: box[3]), icon: image)
      } else {
        let position = try coordinates(element["position"], single: true)[0]
        overlay = GroundOverlay(
          position: position, icon: image, zoomLevel: try element["zoomLevel"].number(default: 18, in: 0...30))
      }
      if !element["anchor"].isAbsentOrNull {
        let anchor = try element["anchor"].elements().map { try $0.number(in: -10...10) }
        guard anchor.count == 2 else {
          throw MarkerError(source: "\(element.source): \(element.path).anchor", reason: "expected [x, y]")
        }
        overlay.anchor = (anchor[0], anchor[1])
      }
      overlay.bearing = try element["bearing"].number(default: 0, in: -36_000...36_000)
      overlay.opacity = try element["opacity"].number(default: 1, in: 0...1)
      overlay.zIndex = try zIndex(element)
      return overlay
    }
  }

  static func tileOverlays(_ cursor: JSONCursor, access: ResourceAccess) throws -> [MapOverlay] {
    guard !cursor.isAbsentOrNull else { return [] }
    return try cursor.elements().map { element in
      var source = try element["source"].string()
      do {
        source = try access.sourceReference(source, field: element["source"].path)
        if !source.contains("://") { source = try access.path(source, field: element["source"].path) }
      } catch {
        throw MarkerError(source: element.source, reason: "\(error)")
      }
      let overlay = TileOverlay(source: source)
      overlay.tileSize = try element["tileSize"].integer(default: 256, in: 64...4096)
      overlay.opacity = try element["opacity"].number(default: 1, in: 0...1)
      overlay.zIndex = try zIndex(element)
      return overlay
    }
  }

  static func heatmaps(_ cursor: JSONCursor, access: ResourceAccess) throws -> [MapOverlay] {
    guard !cursor.isAbsentOrNull else { return [] }
    return try cursor.elements().map { element in
      var points: [HeatmapOverlay.WeightedPoint] = []
      if let file = try element["geojson"].optionalString() {
        let property = try element["weightProperty"].optionalString() ?? "weight"
        for feature in try features(file, access: access, field: element["geojson"]) {
          let geometry = feature["geometry"]
          guard geometry["type"].value?.string == "Point" else { continue }
          let position = try lngLat(geometry["coordinates"])
          let weight = try feature["properties"][property].optionalNumber() ?? 1
          points.append(HeatmapOverlay.WeightedPoint(position, intensity: weight))
        }
      } else {
        for point in try element["points"].elements() {
          let numbers = try point.elements().map { try $0.number() }
          guard numbers.count == 2 || numbers.count == 3, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 90,
            abs(numbers[1]) <= OverlayValidation.maximumLongitude
          else {
            throw MarkerError(
              source: "\(point.source): \(point.path)", reason: "expected [latitude, longitude, weight?]")
          }
          points.append(
            HeatmapOverlay.WeightedPoint(
              Coordinate(latitude: numbers[0], longitude: numbers[1]), intensity: numbers.count == 3 ? numbers[2] : 1))
        }
      }
      let heatmap = HeatmapOverlay(points: points)
      heatmap.radius = try element["radius"].number(default: 20, in: 1...500)
      heatmap.opacity = try element["opacity"].number(default: 0.7, in: 0...1)
      heatmap.intensity = try element["intensity"].number(default: 1, in: 0...1e6)
      if !element["gradient"].isAbsentOrNull {
        heatmap.gradient = try element["gradient"].elements().map { stop in
          let parts = try stop.elements()
          guard parts.count == 2, let color = try color(parts[1]) else {
            throw MarkerError(source: "\(stop.source): \(stop.path)", reason: "expected [density, colour]")
          }
          return (try parts[0].number(in: 0...1), color)
        }
        guard !heatmap.gradient.isEmpty else {
          throw MarkerError(source: "\(element.source): \(element.path).gradient", reason: "expected at least one stop")
        }
      }
      heatmap.zIndex = try zIndex(element)
      return heatmap
    }
  }

  static func geojsonOverlays(_ cursor: JSONCursor, access: ResourceAccess) throws -> [MapOverlay] {
    guard !cursor.isAbsentOrNull else { return [] }
    var overlays: [MapOverlay] = []
    for element in try cursor.elements() {
      let zIndex = try zIndex(element)
      for feature in try features(try element["geojson"].string(), access: access, field: element["geojson"]) {
        let made = try GeoJSONOverlays.overlays(feature)
        for overlay in made { overlay.zIndex = zIndex }
        overlays += made
      }
    }
    return overlays
  }

  static func myLocation(_ cursor: JSONCursor) throws -> LocationFix? {
    guard !cursor.isAbsentOrNull else { return nil }
    let position = try coordinates(cursor["position"], single: true)[0]
    let heading = try cursor["heading"].optionalNumber()
    if let heading, !heading.isFinite {
      throw MarkerError(source: "\(cursor.source): \(cursor.path).heading", reason: "expected degrees")
    }
    return LocationFix(
      coordinate: position, horizontalAccuracy: try cursor["accuracy"].number(default: 0, in: 0...20_000_000),
      heading: heading)
  }

  static func zIndex(_ element: JSONCursor) throws -> Int {
    try element["zIndex"].integer(default: 0, in: Int(Int32.min)...Int(Int32.max))
  }

  /// A picture (PNG, JPEG, WebP or GIF) that `field` names, read through `access`.
  static func picture(_ file: String, access: ResourceAccess, field: JSONCursor) throws -> RGBAImage {
    let bytes: [UInt8]
    do {
      bytes = try access.contents(file, field: field.path)
    } catch {
      throw MarkerError(source: field.source, reason: "\(error)")
    }
    do {
      return try ImageCodec.decode(bytes, source: file)
    } catch {
      throw MarkerError(source: "\(field.source): \(field.path)", reason: "not a readable image: \(error)")
    }
  }

  /// The features of a GeoJSON file (a FeatureCollection or one Feature) that `field` names,
  /// read through `access`.
  static func features(_ file: String, access: ResourceAccess, field: JSONCursor) throws -> [JSONCursor] {
    let data: [UInt8]
    do {
      data = try access.contents(file, field: field.path)
    } catch {
      throw MarkerError(source: field.source, reason: "\(error)")
    }
    let path = access.provides(file) ? file : (try? access.path(file, field: field.path)) ?? file
    let root: JSONValue
    do {
      root = try JSONParser.parse(data)
    } catch {
      throw MarkerError(source: path, reason: "invalid JSON at \(error)")
    }
    let document = JSONCursor(root: root, source: path)
    switch document["type"].value?.string {
    case "FeatureCollection": return try document["features"].elements()
    case "Feature": return [document]
    default: throw MarkerError(source: path, reason: "expected a GeoJSON Feature or FeatureCollection")
    }
  }

  /// A GeoJSON position `[longitude, latitude]`, checked.
  static func lngLat(_ cursor: JSONCursor) throws -> Coordinate {
    let numbers = try cursor.elements().map { try $0.number() }
    guard numbers.count >= 2, numbers[0].isFinite, numbers[1].isFinite, abs(numbers[1]) <= 90,
      abs(numbers[0]) <= OverlayValidation.maximumLongitude
    else {
      throw MarkerError(source: "\(cursor.source): \(cursor.path)", reason: "expected [longitude, latitude]")
    }
    return Coordinate(latitude: numbers[1], longitude: numbers[0])
  }
}

/// Lines and areas of GeoJSON features as overlays, coloured by their simplestyle properties
/// (`stroke` "#555555", `stroke-width` 2, `stroke-opacity` 1, `fill` "#555555", `fill-opacity` 0.6).
enum GeoJSONOverlays {
  static func overlays(_ feature: JSONCursor) throws -> [MapOverlay] {
    let properties = feature["properties"]
    func color(_ key: String, opacity: String, defaultOpacity: Double) throws -> Color {
      var color = try SceneOverlays.color(properties[key]) ?? Color(r: 0x55, g: 0x55, b: 0x55)
      color.alpha *= try properties[opacity].optionalNumber().map { min(max($0, 0), 1) } ?? defaultOpacity
      return color
    }
    let stroke = try color("stroke", opacity: "stroke-opacity", defaultOpacity: 1)
    let width = try properties["stroke-width"].optionalNumber().map { min(max($0, 0), 1000) } ?? 2
    let fill = try color("fill", opacity: "fill-opacity", defaultOpacity: 0.6)
    let geometry = feature["geometry"]
    let coordinates = geometry["coordinates"]
    func line(_ cursor: JSONCursor) throws -> [Coordinate] {
      let points = try cursor.elements()
      guard points.count <= EncodedPolyline.maximumCoordinates else {
        throw MarkerError(
          source: "\(cursor.source): \(cursor.path)", reason: "more than \(EncodedPolyline.maximumCoordinates) points")
      }
      return try points.map(SceneOverlays.lngLat)
    }
    func polyline(_ cursor: JSONCursor) throws -> MapOverlay {
      let overlay = Polyline(path: try line(cursor))
      overlay.strokeColor = stroke
      overlay.strokeWidth = width
      return overlay
    }
    func polygon(_ cursor: JSONCursor) throws -> MapOverlay {
      let rings = try cursor.elements().map(line)
      guard let outer = rings.first else {
        throw MarkerError(source: "\(cursor.source): \(cursor.path)", reason: "a polygon needs an outer ring")
      }
      let overlay = Polygon(path: outer, holes: Array(rings.dropFirst()))
      overlay.fillColor = fill
      overlay.strokeColor = stroke
      overlay.strokeWidth = width
      return overlay
    }
    switch geometry["type"].value?.string {
    case "LineString": return [try polyline(coordinates)]
    case "MultiLineString": return try coordinates.elements().map(polyline)
    case "Polygon": return [try polygon(coordinates)]
    case "MultiPolygon": return try coordinates.elements().map(polygon)
    default: return []
    }
  }
}
