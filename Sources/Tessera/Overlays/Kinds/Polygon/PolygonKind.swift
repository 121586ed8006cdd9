import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Polygons (``Polygon``): `"polygons": [{"path": [[lat, lng], …], "holes": [[[lat, lng], …], …],
/// "fillColor", "strokeColor", "strokeWidth", "geodesic", "zIndex"}]`.
package enum PolygonKind: OverlayKind {
  package static let sceneField = "polygons"
  package static let elementKind = "polygon"
  package static let entryFields: Set<String> = [
    "path", "holes", "fillColor", "strokeColor", "strokeWidth", "geodesic", "zIndex",
  ]
  package static let nestedFields: [(field: String, fields: Set<String>)] = []
  /// `--polygon` writes polygons in the Static Maps syntax (``StaticMapsSyntax/Path``).
  package static let commandLine: OverlayFlagSyntax? = nil

  package static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> Polygon {
    try reader.cancellation?.check()
    let holes =
      entry["holes"].isAbsentOrNull ? [] : try entry["holes"].elements().map { try OverlayReader.coordinates($0) }
    let polygon = Polygon(path: try OverlayReader.coordinates(entry["path"]), holes: holes)
    if let color = try OverlayReader.color(entry["fillColor"]) { polygon.fillColor = color }
    if let color = try OverlayReader.color(entry["strokeColor"]) { polygon.strokeColor = color }
    polygon.strokeWidth = try entry["strokeWidth"].number(default: 1, in: 0...1000)
    polygon.geodesic = try entry["geodesic"].bool(default: false)
    polygon.zIndex = try OverlayReader.zIndex(entry)
    return polygon
  }

  package static func validate(_ polygon: Polygon, _ check: OverlayCheck) throws(OverlayError) {
    try check.coordinates([polygon.path] + polygon.holes, field: "path and holes")
    try check.size(polygon.strokeWidth, "strokeWidth")
  }

  package static func pointCount(_ polygon: Polygon) -> Int {
    ([polygon.path] + polygon.holes).reduce(0) {
      $0 &+ (polygon.geodesic ? OverlayGeometry.geodesicPointCount($1) : $1.count) &+ 1
    }
  }

  package static func coordinates(_ polygon: Polygon) -> [Coordinate] {
    polygon.geodesic ? OverlayGeometry.geodesic(polygon.path) : polygon.path
  }

  /// The outer ring and the holes as drawn: closed, unwrapped across the antimeridian,
  /// densified when geodesic.
  static func rings(_ polygon: Polygon) -> [[Coordinate]] {
    ([polygon.path] + polygon.holes).map { ring in
      let closed = OverlayGeometry.unwrapped(ring.first == ring.last ? ring : ring + ring.prefix(1))
      return polygon.geodesic ? OverlayGeometry.geodesic(closed) : closed
    }
  }

  package static func hits(_ polygon: Polygon, _ point: ScreenPoint, projection: Projection, tolerance: Double)
    -> Bool
  {
    let rings = rings(polygon).map { $0.map { projection.point(for: $0) } }
    if polygon.fillColor.alpha > 0, OverlayHitTest.inside(point, rings) { return true }
    return polygon.strokeWidth > 0 && polygon.strokeColor.alpha > 0
      && rings.contains { OverlayHitTest.near(point, $0, within: polygon.strokeWidth / 2 + tolerance) }
  }

  package static func accessibilityFrame(_ polygon: Polygon, projection: Projection) -> ScreenRect? {
    ScreenRect((rings(polygon).first ?? []).map { projection.point(for: $0) })
  }

  /// The fill of an outer ring that crosses itself is that of the simple loops it is made of
  /// (each keeping the holes that start inside it); its outline is the ring as given.
  package static func addLayers(_ polygon: Polygon, to style: inout OverlayStyleBuilder) {
    let rings = rings(polygon)
    let (fill, stroke, width) = (polygon.fillColor, polygon.strokeColor, polygon.strokeWidth)
    guard let outer = rings.first else { return }
    let loops = SelfIntersection.simpleRings(outer)
    guard loops.count > 1 else {
      style.addArea(rings, fill: fill, stroke: stroke, width: width)
      return
    }
    let holes = rings.dropFirst()
    for loop in loops {
      let kept = holes.filter { hole in hole.first.map { SelfIntersection.contains(loop, $0) } ?? false }
      style.addArea([loop] + kept, fill: fill, stroke: .transparent, width: 0)
    }
    style.addArea(rings, fill: .transparent, stroke: stroke, width: width)
  }

  package static func copy(_ polygon: Polygon) -> Polygon {
    let copy = Polygon(path: polygon.path, holes: polygon.holes)
    copy.fillColor = polygon.fillColor
    copy.strokeColor = polygon.strokeColor
    copy.strokeWidth = polygon.strokeWidth
    copy.geodesic = polygon.geodesic
    return copy
  }
}
