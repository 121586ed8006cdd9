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
    for overlay in overlayLayer.ordered.reversed()
    where overlay.kind.hits(any: overlay, point, projection: projection, tolerance: tolerance) {
      return overlay
    }
    return nil
  }

  /// Where `overlay` lies on screen as an accessibility element shows it: the bounds in points
  /// of its outline (a line's points, a polygon's outer ring, a circle's ring, a picture's
  /// corners, a heatmap's points) at the current camera; nil for tile overlays, which cover
  /// the map, and for an overlay no point of which projects.
  public func accessibilityFrame(of overlay: MapOverlay) -> ScreenRect? {
    overlay.kind.accessibilityFrame(any: overlay, projection: projection)
  }

  /// The accessibility elements of the overlays with a title or an accessibility label that
  /// lie in view, bottom to top (as they are drawn): each labelled with its accessibility
  /// label, else its title, framed by ``accessibilityFrame(of:)`` cut to the view, with its
  /// kind. As the SDK, overlays with neither are not elements.
  public func overlayAccessibilityElements() -> [MarkerAccessibilityElement] {
    let viewport = state.viewport
    var elements: [MarkerAccessibilityElement] = []
    for overlay in overlays.enumerated().sorted(by: { ($0.element.zIndex, $0.offset) < ($1.element.zIndex, $1.offset) })
    {
      let title = overlay.element.title
      guard let label = overlay.element.accessibilityLabel ?? title, let frame = accessibilityFrame(of: overlay.element)
      else { continue }
      let left = max(frame.x, 0)
      let top = max(frame.y, 0)
      let right = min(frame.x + frame.width, viewport.width)
      let bottom = min(frame.y + frame.height, viewport.height)
      guard right >= left, bottom >= top else { continue }  // wholly outside the view
      var element = MarkerAccessibilityElement(
        label: label, title: title, snippet: nil, frame: (left, top, right - left, bottom - top))
      element.isOverlay = true
      element.kind = overlay.element.kind.elementKind
      elements.append(element)
    }
    return elements
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
