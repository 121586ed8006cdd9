import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Polylines (``Polyline``): `"polylines": [{"path": [[lat, lng], …] | "encoded": TEXT, "color",
/// "width", "geodesic", "zIndex", "spans": [{"color" | "gradient": [FROM, TO] | "stamp": PNG,
/// "segments": N}], "dashes": {"colors": [CSS, …], "lengths": [METRES, …], "kind":
/// "geodesic"|"rhumb"|"projected"}, "pattern": ["dash:PT", "gap:PT", "dot", …]}]`.
package enum PolylineKind: OverlayKind {
  package static let sceneField = "polylines"
  package static let elementKind = "polyline"
  package static let entryFields: Set<String> = [
    "path", "encoded", "color", "width", "geodesic", "zIndex", "spans", "dashes", "pattern",
  ]
  /// The fields of a `spans` entry and of `dashes`.
  package static let spanFields: Set<String> = ["color", "gradient", "stamp", "segments"]
  package static let dashFields: Set<String> = ["colors", "lengths", "kind"]
  package static let nestedFields = [(field: "spans", fields: spanFields), (field: "dashes", fields: dashFields)]
  /// `--path` writes polylines in the Static Maps syntax (``StaticMapsSyntax/Path``).
  package static let commandLine: OverlayFlagSyntax? = nil

  package static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> Polyline {
    try reader.cancellation?.check()
    let path: [Coordinate]
    if let encoded = try entry["encoded"].optionalString() {
      do {
        path = try EncodedPolyline.decode(encoded)
      } catch {
        throw OverlayError(entry["encoded"], reason: error.description)
      }
    } else {
      path = try OverlayReader.coordinates(entry["path"])
    }
    let line = Polyline(path: path)
    if let color = try OverlayReader.color(entry["color"]) { line.strokeColor = color }
    line.strokeWidth = try entry["width"].number(default: 1, in: 0...1000)
    line.geodesic = try entry["geodesic"].bool(default: false)
    line.zIndex = try OverlayReader.zIndex(entry)
    line.spans = try PolylineSpans.read(entry, path: path, reader: reader)
    line.strokePattern = try PolylineSpans.pattern(entry["pattern"])
    return line
  }

  package static func validate(_ polyline: Polyline, _ check: OverlayCheck) throws(OverlayError) {
    try check.coordinates([polyline.path], field: "path")
    try check.size(polyline.strokeWidth, "strokeWidth")
    for span in polyline.spans where !(span.segments > 0 && span.segments.isFinite) {
      throw check.fail("a span covers \(span.segments) segments; expected a finite number above 0")
    }
    for item in polyline.strokePattern {
      switch item {
      case .dash(let length), .gap(let length): try check.size(length, "strokePattern length")
      case .dot: break
      }
    }
  }

  package static func pointCount(_ polyline: Polyline) -> Int {
    (polyline.geodesic ? OverlayGeometry.geodesicPointCount(polyline.path) : polyline.path.count)
      &+ 2 &* polyline.spans.count
  }

  package static func coordinates(_ polyline: Polyline) -> [Coordinate] {
    polyline.geodesic ? OverlayGeometry.geodesic(polyline.path) : polyline.path
  }

  /// The line as drawn on screen (unwrapped across the antimeridian, densified when geodesic).
  static func screenLine(_ polyline: Polyline, projection: Projection) -> [ScreenPoint?] {
    let path = OverlayGeometry.unwrapped(polyline.path)
    return (polyline.geodesic ? OverlayGeometry.geodesic(path) : path).map { projection.point(for: $0) }
  }

  package static func hits(_ polyline: Polyline, _ point: ScreenPoint, projection: Projection, tolerance: Double)
    -> Bool
  {
    OverlayHitTest.near(
      point, screenLine(polyline, projection: projection), within: polyline.strokeWidth / 2 + tolerance)
  }

  /// The bounds of the line's points grown by half its width (a straight line is not a
  /// zero-height element).
  package static func accessibilityFrame(_ polyline: Polyline, projection: Projection) -> ScreenRect? {
    guard let bounds = ScreenRect(screenLine(polyline, projection: projection)) else { return nil }
    let half = polyline.strokeWidth / 2
    return ScreenRect(
      x: bounds.x - half, y: bounds.y - half, width: bounds.width + 2 * half, height: bounds.height + 2 * half)
  }

  package static func addLayers(_ polyline: Polyline, to style: inout OverlayStyleBuilder) {
    let path = OverlayGeometry.unwrapped(polyline.path)
    guard path.count >= 2, polyline.strokeWidth > 0 else { return }
    let width = polyline.strokeWidth
    func shaped(_ part: [Coordinate]) -> [Coordinate] { polyline.geodesic ? OverlayGeometry.geodesic(part) : part }
    if !polyline.strokePattern.isEmpty {
      PolylineSpans.addDashed(
        shaped(path), color: polyline.spans.first.flatMap(\.solidColor) ?? polyline.strokeColor,
        width: width, pattern: polyline.strokePattern, to: &style)
      return
    }
    let spans = polyline.spans.filter { $0.segments > 0 && $0.segments.isFinite }
    guard !spans.isEmpty else {
      style.addLine(shaped(path), color: polyline.strokeColor, width: width)
      return
    }
    let segmentCount = Double(path.count - 1)
    var start = 0.0
    for (index, span) in spans.enumerated() where start < segmentCount {
      // The last span covers the rest of the path.
      let end = index == spans.count - 1 ? segmentCount : min(start + span.segments, segmentCount)
      let part = shaped(OverlayGeometry.slice(path, from: start, to: end, geodesic: polyline.geodesic))
      start = end
      guard part.count >= 2 else { continue }
      switch span.style {
      case .solid(let color):
        style.addLine(part, color: color, width: width)
      case .gradient(let from, let to):
        var layer = OverlayLayer(.line, source: .lineMetrics)
        layer.setLineJoin(.round)
        layer.setLineCap(.round)
        layer.setLineWidth(width)
        layer.setLineGradient(from: from, to: to)
        style.addLine(part, drawnBy: layer)
      case .stamp(let image):
        style.addStampedLine(part, image: image, width: width)
      }
    }
  }

  package static func copy(_ polyline: Polyline) -> Polyline {
    let copy = Polyline(path: polyline.path)
    copy.strokeWidth = polyline.strokeWidth
    copy.strokeColor = polyline.strokeColor
    copy.geodesic = polyline.geodesic
    copy.spans = polyline.spans
    copy.strokePattern = polyline.strokePattern
    return copy
  }
}
