import Foundation
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// GeoJSON features projected once to world space (0…1 Mercator, y down), ready to be cut
/// into tiles.
struct GeoJSONFeatures: Sendable {
  struct Feature: Sendable {
    let type: GeometryType
    /// Points: one part of all points; lines: one part per line; polygons: rings, each outer
    /// ring followed by its holes.
    let parts: [[(Double, Double)]]
    /// Where each polygon starts in `parts` (polygons only).
    let polygonStarts: [Int]
    let properties: [(String, FeatureValue)]
    let id: UInt64?
    /// World bounds: minX, minY, maxX, maxY.
    let bounds: (Double, Double, Double, Double)
  }

  var features: [Feature]
  /// Features left out for positions out of range (beyond ±``longitudeLimit``° of longitude,
  /// or not finite), one message each (at most ``problemLimit``).
  let problems: [String]

  /// The farthest longitude a position may have (geometry may cross the antimeridian a few
  /// times; beyond that a position is an error in the data).
  static let longitudeLimit = 1080.0
  static let problemLimit = 10

  /// Reads a FeatureCollection, a Feature or a bare geometry; `source` names it in errors.
  init(_ json: JSONValue, source: String, generateIds: Bool = false) throws(TileSourceError) {
    var features: [Feature] = []
    /// The position of the feature being read in its collection (its id with `generateIds`).
    var featureIndex: UInt64 = 0
    var problems: [String] = []
    /// The first position out of range in the feature being read.
    var outOfRange: String?
    func fail(_ message: String) -> TileSourceError { .open(source: source, reason: "GeoJSON: \(message)") }
    func add(_ value: JSONValue, properties: [(String, FeatureValue)], id: UInt64?) throws(TileSourceError) {
      guard let type = value["type"]?.string else { throw fail("a geometry has no type") }
      if type == "GeometryCollection" {
        for geometry in value["geometries"]?.array ?? [] { try add(geometry, properties: properties, id: id) }
        return
      }
      guard let coordinates = value["coordinates"] else { throw fail("a \(type) has no coordinates") }
      func point(_ json: JSONValue) throws(TileSourceError) -> (Double, Double) {
        guard let pair = json.array, pair.count >= 2, let lng = pair[0].number, let lat = pair[1].number else {
          throw fail("a position must be [longitude, latitude]")
        }
        guard lng.isFinite, lat.isFinite, abs(lng) <= GeoJSONFeatures.longitudeLimit else {
          outOfRange = outOfRange ?? json.serialized()
          return (0, 0)
        }
        return GeoJSONFeatures.project(longitude: lng, latitude: lat)
      }
      func line(_ json: JSONValue) throws(TileSourceError) -> [(Double, Double)] {
        guard let positions = json.array else { throw fail("expected an array of positions") }
        var result: [(Double, Double)] = []
        for position in positions { result.append(try point(position)) }
        return result
      }
      func polygon(_ json: JSONValue) throws(TileSourceError) -> [[(Double, Double)]] {
        guard let rings = json.array else { throw fail("expected an array of rings") }
        var result: [[(Double, Double)]] = []
        for (index, ring) in rings.enumerated() {
          let points = try line(ring)
          guard points.count >= 4 else { continue }
          // Outer rings clockwise on screen (positive area, y down), holes the other way.
          let area = GeoJSONFeatures.doubledArea(points)
          result.append((index == 0) == (area > 0) ? points : points.reversed())
        }
        return result
      }
      var parts: [[(Double, Double)]] = []
      var starts: [Int] = []
      let geometry: GeometryType
      switch type {
      case "Point": geometry = .point; parts = [[try point(coordinates)]]
      case "MultiPoint": geometry = .point; parts = [try line(coordinates)]
      case "LineString": geometry = .lineString; parts = [try line(coordinates)]
      case "MultiLineString":
        geometry = .lineString
        for item in coordinates.array ?? [] { parts.append(try line(item)) }
      case "Polygon":
        geometry = .polygon
        starts = [0]
        parts = try polygon(coordinates)
      case "MultiPolygon":
        geometry = .polygon
        for item in coordinates.array ?? [] {
          starts.append(parts.count)
          parts += try polygon(item)
        }
      default: throw fail("unknown geometry type '\(type)'")
      }
      parts = parts.filter { !$0.isEmpty }
      guard !parts.isEmpty else { return }
      var bounds = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
      for part in parts {
        for (x, y) in part {
          bounds = (min(bounds.0, x), min(bounds.1, y), max(bounds.2, x), max(bounds.3, y))
        }
      }
      features.append(
        Feature(type: geometry, parts: parts, polygonStarts: starts, properties: properties, id: id, bounds: bounds))
    }
    func feature(_ value: JSONValue) throws(TileSourceError) {
      var properties: [(String, FeatureValue)] = []
      for (key, property) in value["properties"]?.object?.pairs ?? [] {
        switch property {
        case .string(let text): properties.append((key, .string(text)))
        case .number(let number): properties.append((key, .number(number)))
        case .bool(let flag): properties.append((key, .bool(flag)))
        case .null: continue
        case .array, .object: properties.append((key, .json(property)))
        }
      }
      // Ids are whole numbers (vector tiles hold no others); a string of digits counts as its
      // number, so feature state can name the feature either way.
      let id: UInt64?
      switch value["id"] {
      case .number(let number)?:
        id = number >= 0 && number == number.rounded() && number < 1.8e19 ? UInt64(clamping: number) : nil
      case .string(let text)?: id = UInt64(text)
      default: id = nil
      }
      defer { featureIndex += 1 }
      if generateIds {
        guard let geometry = value["geometry"], geometry != .null else { return }
        return try addChecked(geometry, properties: properties, id: featureIndex)
      }
      guard let geometry = value["geometry"], geometry != .null else { return }
      try addChecked(geometry, properties: properties, id: id)
    }
    /// Adds a geometry, or leaves it out when a position is out of range.
    func addChecked(_ geometry: JSONValue, properties: [(String, FeatureValue)], id: UInt64?) throws(TileSourceError) {
      let count = features.count
      outOfRange = nil
      try add(geometry, properties: properties, id: id)
      if let position = outOfRange {
        // One feature with a position out of range is left out, not the whole source.
        features.removeSubrange(count...)
        if problems.count < GeoJSONFeatures.problemLimit {
          problems.append("\(source): a feature with position \(position) (out of range) is left out")
        }
      }
    }
    switch json["type"]?.string {
    case "FeatureCollection":
      for item in json["features"]?.array ?? [] { try feature(item) }
    case "Feature":
      try feature(json)
    case .some:
      try addChecked(json, properties: [], id: nil)
    case nil:
      throw fail("the data has no type")
    }
    self.features = features
    self.problems = problems
  }

  /// Longitude and latitude to 0…1 world coordinates (latitude clamped like geojson-vt; one
  /// beyond ±90°, however large, is a pole).
  static func project(longitude: Double, latitude: Double) -> (Double, Double) {
    let sine = sin(min(max(latitude, -90), 90) * .pi / 180)
    let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi
    return (longitude / 360 + 0.5, y.isNaN ? 0 : min(max(y, 0), 1))
  }

  static func doubledArea(_ ring: [(Double, Double)]) -> Double {
    var sum = 0.0
    var previous = ring[ring.count - 1]
    for point in ring {
      sum += previous.0 * point.1 - point.0 * previous.1
      previous = point
    }
    return sum
  }
}
