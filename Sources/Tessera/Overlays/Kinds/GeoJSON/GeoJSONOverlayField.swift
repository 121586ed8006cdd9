import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// `"geojsonOverlays": [{"geojson": PATH, "zIndex"}]`: every line and area of a GeoJSON file as
/// a polyline or polygon, coloured by its simplestyle properties (`stroke` "#555555",
/// `stroke-width` 2, `stroke-opacity` 1, `fill` "#555555", `fill-opacity` 0.6).
package enum GeoJSONOverlayField: SceneOverlayField {
  package static let sceneField = "geojsonOverlays"
  package static let entryFields: Set<String> = ["geojson", "zIndex"]
  package static let nestedFields: [(field: String, fields: Set<String>)] = []
  package static let commandLine: OverlayFlagSyntax? = nil

  package static func read(_ entry: JSONCursor, reader: OverlayReader) throws -> [MapOverlay] {
    let zIndex = try OverlayReader.zIndex(entry)
    var read: [MapOverlay] = []
    for feature in try reader.features(try entry["geojson"].string(), field: entry["geojson"]) {
      let made = try overlays(feature)
      for overlay in made { overlay.zIndex = zIndex }
      read += made
    }
    return read
  }

  /// The polylines and polygons of one feature (none for other geometries).
  static func overlays(_ feature: JSONCursor) throws -> [MapOverlay] {
    let properties = feature["properties"]
    func color(_ key: String, opacity: String, defaultOpacity: Double) throws -> Color {
      var color = try OverlayReader.color(properties[key]) ?? Color(r: 0x55, g: 0x55, b: 0x55)
      color.alpha *= try properties[opacity].optionalNumber().map { min(max($0, 0), 1) } ?? defaultOpacity
      return color
    }
    let stroke = try color("stroke", opacity: "stroke-opacity", defaultOpacity: 1)
    let width = try properties["stroke-width"].optionalNumber().map { min(max($0, 0), 1000) } ?? 2
    let fill = try color("fill", opacity: "fill-opacity", defaultOpacity: 0.6)
    let geometry = feature["geometry"]
    let coordinates = geometry["coordinates"]
    func polyline(_ cursor: JSONCursor) throws -> MapOverlay {
      let overlay = Polyline(path: try OverlayReader.lngLats(cursor))
      overlay.strokeColor = stroke
      overlay.strokeWidth = width
      return overlay
    }
    func polygon(_ cursor: JSONCursor) throws -> MapOverlay {
      let rings = try cursor.elements().map(OverlayReader.lngLats)
      guard let outer = rings.first else { throw OverlayError(cursor, reason: "a polygon needs an outer ring") }
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
