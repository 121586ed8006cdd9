import Foundation
import TesseraGeo
import TesseraNumbers

extension Map {
  /// The topmost overlay drawn at `point` (points from the view's top left), like
  /// ``marker(at:)`` for markers: a polyline within half its width (and `tolerance` points) of
  /// its line, a polygon or circle inside its filled area (even-odd, holes excluded) or near
  /// its outline, a ground overlay inside its picture. Tile overlays and heatmaps cover the
  /// map and are never hit. Markers draw above overlays, so test ``marker(at:)`` first.
  public func overlay(at point: ScreenPoint, tolerance: Double = 4) -> MapOverlay? {
    let projection = self.projection
    func screen(_ ring: [Coordinate]) -> [ScreenPoint?] { ring.map { projection.point(for: $0) } }
    for overlay in overlayLayer.ordered.reversed() {
      switch overlay {
      case let polyline as Polyline:
        let path = OverlayGeometry.unwrapped(polyline.path)
        let shaped = polyline.geodesic ? OverlayGeometry.geodesic(path) : path
        if OverlayHitTest.near(point, screen(shaped), within: polyline.strokeWidth / 2 + tolerance) { return polyline }
      case let polygon as Polygon:
        let rings = ([polygon.path] + polygon.holes).map { ring in
          let closed = OverlayGeometry.unwrapped(ring.first == ring.last ? ring : ring + ring.prefix(1))
          return screen(polygon.geodesic ? OverlayGeometry.geodesic(closed) : closed)
        }
        if polygon.fillColor.alpha > 0, OverlayHitTest.inside(point, rings) { return polygon }
        if polygon.strokeWidth > 0, polygon.strokeColor.alpha > 0,
          rings.contains(where: { OverlayHitTest.near(point, $0, within: polygon.strokeWidth / 2 + tolerance) })
        {
          return polygon
        }
      case let circle as Circle:
        let ring = screen(OverlayGeometry.circle(center: circle.position, radius: circle.radius))
        if circle.fillColor.alpha > 0, OverlayHitTest.inside(point, [ring]) { return circle }
        if circle.strokeWidth > 0, circle.strokeColor.alpha > 0,
          OverlayHitTest.near(point, ring, within: circle.strokeWidth / 2 + tolerance)
        {
          return circle
        }
      case let ground as GroundOverlay:
        if let corners = ground.corners, OverlayHitTest.inside(point, [screen(corners + corners.prefix(1))]) {
          return ground
        }
      default:
        continue
      }
    }
    return nil
  }
}

/// Plane geometry of hit tests on projected overlay outlines (points that do not project, such
/// as ones behind the camera, break a line into pieces).
enum OverlayHitTest {
  /// Whether `point` lies within `distance` of the line through `points`.
  static func near(_ point: ScreenPoint, _ points: [ScreenPoint?], within distance: Double) -> Bool {
    for (a, b) in zip(points, points.dropFirst()) {
      guard let a, let b else { continue }
      let (dx, dy) = (b.x - a.x, b.y - a.y)
      let length = dx * dx + dy * dy
      let t = length > 0 ? min(max(((point.x - a.x) * dx + (point.y - a.y) * dy) / length, 0), 1) : 0
      if hypot(point.x - (a.x + t * dx), point.y - (a.y + t * dy)) <= distance { return true }
    }
    return false
  }

  /// Whether `point` lies inside `rings` by the even-odd rule (a hole's inside is outside).
  static func inside(_ point: ScreenPoint, _ rings: [[ScreenPoint?]]) -> Bool {
    var crossings = 0
    for ring in rings {
      for (a, b) in zip(ring, ring.dropFirst()) {
        guard let a, let b else { continue }
        if (a.y > point.y) != (b.y > point.y),
          point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
        {
          crossings += 1
        }
      }
    }
    return crossings % 2 == 1
  }
}
