import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// The area of a `["within", GeoJSON]` expression: polygons in world units (0…1 across the
/// Mercator world from its north-west corner). A point feature is within when every point lies
/// strictly inside one polygon (holes excluded, edges outside); a line feature when every line
/// lies inside one polygon and crosses none of its edges; other features never are, as in
/// MapLibre.
package struct WithinRegion: Sendable {
  /// Each polygon's rings: the exterior first, then holes, each closed or not.
  package let polygons: [[[WorldPoint]]]
  /// Tessera's `["tessera:centre-within", GeoJSON]`: a polygon feature is within when the
  /// middle of its outer ring's bounds is (MapLibre's `within` never holds for polygons). The
  /// built-in map types use it to leave out the buildings an indoor floor plan replaces.
  package var testsCentres = false
  package static let centreOperator = "tessera:centre-within"

  /// The most vertices the area may have in all.
  package static let maximumVertices = 100_000

  /// Reads a GeoJSON Polygon or MultiPolygon, or a Feature or FeatureCollection of them.
  init(geoJSON: JSONValue, parser: ExpressionParser) throws(StyleError) {
    var polygons: [[[WorldPoint]]] = []
    var vertices = 0
    func ring(_ value: JSONValue) throws(StyleError) -> [WorldPoint] {
      guard case .array(let positions) = value else { throw parser.fail("'within' expects rings of positions") }
      var ring: [WorldPoint] = []
      for position in positions {
        guard case .array(let pair) = position, pair.count >= 2, let longitude = pair[0].number,
          let latitude = pair[1].number, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 1e6
        else { throw parser.fail("'within' expects positions [longitude, latitude] with latitudes within ±90") }
        let clamped = max(min(latitude, Mercator.maxLatitude), -Mercator.maxLatitude)
        ring.append(Mercator.project(Coordinate(latitude: clamped, longitude: longitude), worldSize: 1))
      }
      vertices += ring.count
      guard vertices <= WithinRegion.maximumVertices else {
        throw parser.fail("'within' takes areas of at most \(WithinRegion.maximumVertices) vertices")
      }
      return ring
    }
    func polygon(_ value: JSONValue) throws(StyleError) -> [[WorldPoint]] {
      guard case .array(let rings) = value, !rings.isEmpty else { throw parser.fail("'within' expects polygon rings") }
      var result: [[WorldPoint]] = []
      for value in rings { result.append(try ring(value)) }
      return result
    }
    func add(_ geometry: JSONValue, depth: Int) throws(StyleError) {
      guard depth < 4, case .object(let object) = geometry, case .string(let type)? = object["type"] else {
        throw parser.fail("'within' expects a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection")
      }
      switch type {
      case "Polygon":
        polygons.append(try polygon(object["coordinates"] ?? .null))
      case "MultiPolygon":
        guard case .array(let parts)? = object["coordinates"] else { throw parser.fail("'within' expects polygons") }
        for part in parts { polygons.append(try polygon(part)) }
      case "Feature":
        try add(object["geometry"] ?? .null, depth: depth + 1)
      case "FeatureCollection":
        guard case .array(let features)? = object["features"] else { throw parser.fail("'within' expects features") }
        for feature in features { try add(feature, depth: depth + 1) }
      default:
        throw parser.fail("'within' expects a Polygon or MultiPolygon, found \(type)")
      }
    }
    try add(geoJSON, depth: 0)
    self.polygons = polygons
  }

  /// Whether `feature` lies within the area (false when its geometry is unknown).
  func contains(_ feature: any StyleFeature) -> Bool {
    guard let parts = feature.worldGeometry, !parts.isEmpty else { return false }
    switch feature.geometryTypeName {
    case "Point":
      return parts.allSatisfy { $0.allSatisfy { point in polygons.contains { WithinRegion.inside(point, $0) } } }
    case "LineString":
      return parts.allSatisfy { line in polygons.contains { WithinRegion.lineInside(line, $0) } }
    case "Polygon" where testsCentres:
      guard let ring = parts.first, let first = ring.first else { return false }
      var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
      for point in ring {
        (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
        (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
      }
      let centre = WorldPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2)
      return polygons.contains { WithinRegion.inside(centre, $0) }
    default:
      return false
    }
  }

  /// Whether `point` is strictly inside `polygon` (even-odd over its rings; on an edge: no).
  static func inside(_ point: WorldPoint, _ polygon: [[WorldPoint]]) -> Bool {
    var inside = false
    for ring in polygon where ring.count >= 2 {
      var previous = ring[ring.count - 1]
      for current in ring {
        if onSegment(point, previous, current) { return false }
        if (current.y > point.y) != (previous.y > point.y),
          point.x < (previous.x - current.x) * (point.y - current.y) / (previous.y - current.y) + current.x
        {
          inside.toggle()
        }
        previous = current
      }
    }
    return inside
  }

  /// Whether every vertex of `line` is inside `polygon` and no segment crosses its edges.
  static func lineInside(_ line: [WorldPoint], _ polygon: [[WorldPoint]]) -> Bool {
    guard line.allSatisfy({ inside($0, polygon) }) else { return false }
    for index in line.indices.dropFirst() {
      let (a, b) = (line[index - 1], line[index])
      for ring in polygon where ring.count >= 2 {
        var previous = ring[ring.count - 1]
        for current in ring {
          if segmentsCross(a, b, previous, current) { return false }
          previous = current
        }
      }
    }
    return true
  }

  static func cross(_ o: WorldPoint, _ a: WorldPoint, _ b: WorldPoint) -> Double {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
  }

  static func onSegment(_ p: WorldPoint, _ a: WorldPoint, _ b: WorldPoint) -> Bool {
    cross(a, b, p) == 0 && p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y)
      && p.y <= max(a.y, b.y)
  }

  /// Whether segments ab and cd cross (touching counts).
  static func segmentsCross(_ a: WorldPoint, _ b: WorldPoint, _ c: WorldPoint, _ d: WorldPoint) -> Bool {
    let d1 = cross(c, d, a)
    let d2 = cross(c, d, b)
    let d3 = cross(a, b, c)
    let d4 = cross(a, b, d)
    if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
    return onSegment(c, a, b) || onSegment(d, a, b) || onSegment(a, c, d) || onSegment(b, c, d)
  }
}
