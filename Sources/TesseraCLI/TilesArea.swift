import Foundation
import Tessera
import TesseraJSON
import TesseraNumbers

/// Reads the polygons of a GeoJSON file (Polygon and MultiPolygon geometries, alone, in
/// features or feature collections) as rings of longitude/latitude points.
enum GeoJSONArea {
  static func rings(path: String) throws(UsageError) -> [[SIMD2<Double>]] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError("--geojson: cannot read \(path)")
    }
    let document: JSONValue
    do {
      document = try JSONParser.parse([UInt8](data))
    } catch {
      throw UsageError("--geojson: \(path) is not JSON: \(error)")
    }
    var rings: [[SIMD2<Double>]] = []
    func ring(_ value: JSONValue) throws(UsageError) -> [SIMD2<Double>] {
      guard case .array(let points) = value else { throw UsageError("--geojson: \(path): a ring is not an array") }
      var ring: [SIMD2<Double>] = []
      for point in points {
        guard case .array(let pair) = point, pair.count >= 2, case .number(let x) = pair[0],
          case .number(let y) = pair[1],
          x.isFinite, y.isFinite
        else { throw UsageError("--geojson: \(path): a position is not [longitude, latitude]") }
        ring.append(SIMD2(x, y))
      }
      return ring
    }
    func collect(_ value: JSONValue) throws(UsageError) {
      guard case .object(let object) = value else { return }
      switch object["type"]?.string {
      case "FeatureCollection":
        if case .array(let features)? = object["features"] { for feature in features { try collect(feature) } }
      case "Feature":
        if let geometry = object["geometry"] { try collect(geometry) }
      case "GeometryCollection":
        if case .array(let geometries)? = object["geometries"] { for geometry in geometries { try collect(geometry) } }
      case "Polygon":
        if case .array(let polygon)? = object["coordinates"] { for value in polygon { rings.append(try ring(value)) } }
      case "MultiPolygon":
        if case .array(let polygons)? = object["coordinates"] {
          for case .array(let polygon) in polygons { for value in polygon { rings.append(try ring(value)) } }
        }
      default: return
      }
    }
    try collect(document)
    guard !rings.isEmpty else { throw UsageError("--geojson: \(path) holds no Polygon or MultiPolygon") }
    return rings
  }
}
