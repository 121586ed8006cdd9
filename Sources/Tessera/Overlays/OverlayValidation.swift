import Foundation
import TesseraGeo
import TesseraNumbers

/// An overlay that cannot be drawn: what it is (its title when it has one) and why.
public struct OverlayError: Error, Equatable, CustomStringConvertible {
  public let overlay: String
  public let reason: String

  public var description: String { "overlay \(overlay): \(reason)" }
}

/// The limits overlays are checked against before they are drawn.
enum OverlayValidation {
  /// The most points one overlay's paths may hold together (10 million are refused).
  static let maximumPoints = EncodedPolyline.maximumCoordinates
  /// Degrees: longitudes may run past ±180 (a path continuing across the antimeridian) but not
  /// beyond ten turns.
  static let maximumLongitude = 3600.0

  /// Throws when `overlay` holds coordinates that are not finite or out of range, more points
  /// than ``maximumPoints``, or a negative or non-finite size.
  static func check(_ overlay: MapOverlay) throws(OverlayError) {
    let name = overlay.title.map { "'\($0)'" } ?? String(describing: type(of: overlay)).lowercased()
    func fail(_ reason: String) -> OverlayError { OverlayError(overlay: name, reason: reason) }
    func check(_ paths: [[Coordinate]], field: String) throws(OverlayError) {
      let count = paths.reduce(0) { $0 + $1.count }
      guard count <= maximumPoints else {
        throw fail("\(field) holds \(count) points; the limit is \(maximumPoints)")
      }
      for path in paths {
        for (index, point) in path.enumerated()
        where !point.latitude.isFinite || !point.longitude.isFinite || abs(point.latitude) > 90 {
          throw fail(
            "\(field) point \(index) is (\(point.latitude), \(point.longitude)); expected finite degrees with latitude in −90…90"
          )
        }
      }
    }
    func size(_ value: Double, _ field: String) throws(OverlayError) {
      guard value.isFinite, value >= 0 else { throw fail("\(field) is \(value); expected a finite number ≥ 0") }
    }
    switch overlay {
    case let polyline as Polyline:
      try check([polyline.path], field: "path")
      try size(polyline.strokeWidth, "strokeWidth")
      for span in polyline.spans where !(span.segments > 0 && span.segments.isFinite) {
        throw fail("a span covers \(span.segments) segments; expected a finite number above 0")
      }
      for item in polyline.strokePattern {
        switch item {
        case .dash(let length), .gap(let length): try size(length, "strokePattern length")
        case .dot: break
        }
      }
    case let polygon as Polygon:
      try check([polygon.path] + polygon.holes, field: "path and holes")
      try size(polygon.strokeWidth, "strokeWidth")
    case let circle as Circle:
      try check([[circle.position]], field: "position")
      try size(circle.radius, "radius")
      try size(circle.strokeWidth, "strokeWidth")
    case let ground as GroundOverlay:
      try check([[ground.position].compactMap { $0 }], field: "position")
      try size(ground.opacity, "opacity")
      guard ground.bearing.isFinite, ground.zoomLevel.isFinite else {
        throw fail("bearing and zoomLevel must be finite")
      }
      if let bounds = ground.bounds, !bounds.isValid { throw fail("bounds \(bounds) are not valid") }
    case let heatmap as HeatmapOverlay:
      try check([heatmap.points.map(\.coordinate)], field: "points")
      try size(heatmap.radius, "radius")
      try size(heatmap.intensity, "intensity")
    case let tiles as TileOverlay:
      try size(tiles.opacity, "opacity")
      guard (1...8192).contains(tiles.tileSize) else { throw fail("tileSize \(tiles.tileSize) is not in 1…8192") }
    default:
      break
    }
  }
}
