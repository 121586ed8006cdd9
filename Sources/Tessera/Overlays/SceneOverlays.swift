import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers
import TesseraRender

extension MapOverlay {
  /// The overlays of scene overlay fields (`polylines`, `polygons`, `circles`,
  /// `groundOverlays`, `tileOverlays`, `heatmaps`, `geojsonOverlays`), each checked against the
  /// limits it is drawn with; errors name `source` and the field. Files the fields name are
  /// read through `access`.
  public static func overlays(
    sceneFields: JSONValue, source: String, access: ResourceAccess, cancellation: RenderCancellation? = nil
  ) throws -> [MapOverlay] {
    let overlays = try SceneOverlays.load(
      JSONCursor(root: sceneFields, source: source), access: access, cancellation: cancellation)
    for overlay in overlays { try OverlayValidation.check(overlay) }
    return overlays
  }
}

/// Overlays described in a scene:
/// `"polylines": [{"path": [[lat, lng], …] | "encoded": TEXT, "color", "width", "geodesic", "zIndex"}]`,
/// `"polygons": [{"path", "holes": [[[lat, lng], …], …], "fillColor", "strokeColor", "strokeWidth", "geodesic", "zIndex"}]`,
/// `"circles": [{"center": [lat, lng], "radius": METRES, "fillColor", "strokeColor", "strokeWidth", "zIndex"}]`.
/// A bad field is an error naming the scene file and the field's path.
enum SceneOverlays {
  static let polylineFields: Set<String> = [
    "path", "encoded", "color", "width", "geodesic", "zIndex", "spans", "dashes", "pattern",
  ]
  /// The scene's fields holding overlays.
  static let sceneFields = [
    "polylines", "polygons", "circles", "groundOverlays", "tileOverlays", "heatmaps", "geojsonOverlays",
  ]
  static let polygonFields: Set<String> = [
    "path", "holes", "fillColor", "strokeColor", "strokeWidth", "geodesic", "zIndex",
  ]
  static let circleFields: Set<String> = ["center", "radius", "fillColor", "strokeColor", "strokeWidth", "zIndex"]
  static let groundOverlayFields: Set<String> = [
    "image", "bounds", "position", "zoomLevel", "anchor", "bearing", "opacity", "zIndex",
  ]
  static let tileOverlayFields: Set<String> = ["source", "tileSize", "opacity", "zIndex"]
  static let heatmapFields: Set<String> = [
    "points", "geojson", "weightProperty", "radius", "gradient", "opacity", "intensity", "zIndex",
  ]
  static let geojsonOverlayFields: Set<String> = ["geojson", "zIndex"]
  /// The fields of a polyline's `spans` entries and of its `dashes`.
  static let spanFields: Set<String> = ["color", "gradient", "stamp", "segments"]
  static let dashFields: Set<String> = ["colors", "lengths", "kind"]
  /// The fields of `myLocation`.
  static let myLocationFields: Set<String> = ["position", "accuracy", "heading"]

  /// The fields of the entries of each scene field holding overlays: what the readers below
  /// read, and what the scene warns about when it finds something else.
  static let entryFields: [String: Set<String>] = [
    "polylines": polylineFields, "polygons": polygonFields, "circles": circleFields,
    "groundOverlays": groundOverlayFields, "tileOverlays": tileOverlayFields, "heatmaps": heatmapFields,
    "geojsonOverlays": geojsonOverlayFields,
  ]

  /// One warning for each field of the overlay entries in `root` (and their spans and dashes)
  /// that no reader reads.
  static func unknownFields(_ root: JSONCursor) throws -> [String] {
    var warnings: [String] = []
    for (field, known) in entryFields.sorted(by: { $0.key < $1.key }) where !root[field].isAbsentOrNull {
      for entry in try root[field].elements() {
        warnings += try Scene.unknownFields(entry, known: known)
        if field == "polylines" {
          if !entry["spans"].isAbsentOrNull {
            for span in try entry["spans"].elements() { warnings += try Scene.unknownFields(span, known: spanFields) }
          }
          if !entry["dashes"].isAbsentOrNull { warnings += try Scene.unknownFields(entry["dashes"], known: dashFields) }
        }
      }
    }
    return warnings
  }

  /// The overlays of the scene's overlay fields, in the order of ``sceneFields``; files are
  /// read through `access`.
  static func load(_ root: JSONCursor, access: ResourceAccess, cancellation: RenderCancellation? = nil) throws
    -> [MapOverlay]
  {
    var overlays: [MapOverlay] = []
    for element in root["polylines"].isAbsentOrNull ? [] : try root["polylines"].elements() {
      try cancellation?.check()
      let path: [Coordinate]
      if let encoded = try element["encoded"].optionalString() {
        do {
          path = try EncodedPolyline.decode(encoded)
        } catch {
          throw MarkerError(source: "\(element.source): \(element.path).encoded", reason: error.description)
        }
      } else {
        path = try coordinates(element["path"])
      }
      let line = Polyline(path: path)
      if let color = try color(element["color"]) { line.strokeColor = color }
      line.strokeWidth = try element["width"].number(default: 1, in: 0...1000)
      line.geodesic = try element["geodesic"].bool(default: false)
      line.zIndex = try element["zIndex"].integer(default: 0, in: Int(Int32.min)...Int(Int32.max))
      line.spans = try spans(element, path: path, access: access)
      line.strokePattern = try pattern(element["pattern"])
      overlays.append(line)
    }
    for element in root["polygons"].isAbsentOrNull ? [] : try root["polygons"].elements() {
      try cancellation?.check()
      let holes = element["holes"].isAbsentOrNull ? [] : try element["holes"].elements().map { try coordinates($0) }
      let polygon = Polygon(path: try coordinates(element["path"]), holes: holes)
      if let color = try color(element["fillColor"]) { polygon.fillColor = color }
      if let color = try color(element["strokeColor"]) { polygon.strokeColor = color }
      polygon.strokeWidth = try element["strokeWidth"].number(default: 1, in: 0...1000)
      polygon.geodesic = try element["geodesic"].bool(default: false)
      polygon.zIndex = try element["zIndex"].integer(default: 0, in: Int(Int32.min)...Int(Int32.max))
      overlays.append(polygon)
    }
    for element in root["circles"].isAbsentOrNull ? [] : try root["circles"].elements() {
      let center = try coordinates(element["center"], single: true)[0]
      let circle = Circle(position: center, radius: try element["radius"].number(in: 0...20_000_000))
      if let color = try color(element["fillColor"]) { circle.fillColor = color }
      if let color = try color(element["strokeColor"]) { circle.strokeColor = color }
      circle.strokeWidth = try element["strokeWidth"].number(default: 1, in: 0...1000)
      circle.zIndex = try element["zIndex"].integer(default: 0, in: Int(Int32.min)...Int(Int32.max))
      overlays.append(circle)
    }
    overlays += try groundOverlays(root["groundOverlays"], access: access)
    overlays += try tileOverlays(root["tileOverlays"], access: access)
    overlays += try heatmaps(root["heatmaps"], access: access)
    overlays += try geojsonOverlays(root["geojsonOverlays"], access: access)
    return overlays
  }

  /// `[[lat, lng], …]` (or one `[lat, lng]` when `single`), each checked.
  static func coordinates(_ cursor: JSONCursor, single: Bool = false) throws -> [Coordinate] {
    let points = single ? [cursor] : try cursor.elements()
    guard points.count <= EncodedPolyline.maximumCoordinates else {
      throw MarkerError(
        source: "\(cursor.source): \(cursor.path)", reason: "more than \(EncodedPolyline.maximumCoordinates) points")
    }
    return try points.map { point in
      let numbers = try point.elements().map { try $0.number() }
      guard numbers.count == 2, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 90,
        abs(numbers[1]) <= OverlayValidation.maximumLongitude
      else {
        throw MarkerError(
          source: "\(point.source): \(point.path)",
          reason: "expected [latitude, longitude] with latitude in −90…90 and longitude in ±3600")
      }
      return Coordinate(latitude: numbers[0], longitude: numbers[1])
    }
  }

  static func color(_ cursor: JSONCursor) throws -> Color? {
    guard let text = try cursor.optionalString() else { return nil }
    guard let color = try? Color(css: text) else {
      throw MarkerError(source: "\(cursor.source): \(cursor.path)", reason: "invalid colour '\(text)'")
    }
    return color
  }
}
