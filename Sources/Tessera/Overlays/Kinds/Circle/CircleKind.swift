import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Circles (``Circle``): `"circles": [{"center": [lat, lng], "radius": METRES, "fillColor",
/// "strokeColor", "strokeWidth", "zIndex"}]`.
package enum CircleKind: OverlayKind {
  package static let sceneField = "circles"
  package static let elementKind = "circle"
  package static let entryFields: Set<String> = [
    "center", "radius", "fillColor", "strokeColor", "strokeWidth", "zIndex",
  ]
  package static let nestedFields: [(field: String, fields: Set<String>)] = []
  /// `--circle LAT,LNG,RADIUS_M[,…]` makes circles in the CLI itself.
  package static let commandLine: OverlayFlagSyntax? = nil

  package static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> Circle {
    let center = try OverlayReader.coordinates(entry["center"], single: true)[0]
    let circle = Circle(position: center, radius: try entry["radius"].number(in: 0...20_000_000))
    if let color = try OverlayReader.color(entry["fillColor"]) { circle.fillColor = color }
    if let color = try OverlayReader.color(entry["strokeColor"]) { circle.strokeColor = color }
    circle.strokeWidth = try entry["strokeWidth"].number(default: 1, in: 0...1000)
    circle.zIndex = try OverlayReader.zIndex(entry)
    return circle
  }

  package static func validate(_ circle: Circle, _ check: OverlayCheck) throws(OverlayError) {
    try check.coordinates([[circle.position]], field: "position")
    try check.size(circle.radius, "radius")
    try check.size(circle.strokeWidth, "strokeWidth")
  }

  /// The ring's 360 points and the closing one.
  package static func pointCount(_ circle: Circle) -> Int { 361 }

  package static func coordinates(_ circle: Circle) -> [Coordinate] {
    OverlayGeometry.circle(center: circle.position, radius: circle.radius, count: 36)
  }

  package static func hits(_ circle: Circle, _ point: ScreenPoint, projection: Projection, tolerance: Double) -> Bool {
    let ring = OverlayGeometry.circle(center: circle.position, radius: circle.radius).map { projection.point(for: $0) }
    if circle.fillColor.alpha > 0, OverlayHitTest.inside(point, [ring]) { return true }
    return circle.strokeWidth > 0 && circle.strokeColor.alpha > 0
      && OverlayHitTest.near(point, ring, within: circle.strokeWidth / 2 + tolerance)
  }

  package static func accessibilityFrame(_ circle: Circle, projection: Projection) -> ScreenRect? {
    ScreenRect(OverlayGeometry.circle(center: circle.position, radius: circle.radius).map { projection.point(for: $0) })
  }

  package static func addLayers(_ circle: Circle, to style: inout OverlayStyleBuilder) {
    let ring = OverlayGeometry.circle(center: circle.position, radius: circle.radius)
    style.addArea([ring], fill: circle.fillColor, stroke: circle.strokeColor, width: circle.strokeWidth)
  }

  package static func copy(_ circle: Circle) -> Circle {
    let copy = Circle(position: circle.position, radius: circle.radius)
    copy.fillColor = circle.fillColor
    copy.strokeColor = circle.strokeColor
    copy.strokeWidth = circle.strokeWidth
    return copy
  }
}
