import Foundation
import TesseraGeo
import TesseraNumbers

/// Where a marker is on the screen: its four corners (points), from the icon's top-left,
/// clockwise; nil when its anchor is behind the camera.
enum MarkerGeometry {
  static func corners(_ marker: Marker, icon: ResolvedIcon, transform: CameraTransform) -> [ScreenPoint]? {
    let unitCorners: [(Double, Double)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
    let angle = marker.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    func local(_ corner: (Double, Double)) -> (Double, Double) {
      let x = (corner.0 - marker.groundAnchor.x) * icon.width
      let y = (corner.1 - marker.groundAnchor.y) * icon.height
      return (x * c - y * s, x * s + y * c)
    }
    if marker.isFlat {
      let world = Mercator.project(marker.drawnPosition, worldSize: transform.worldSize)
      let (dx, dy) = transform.offsetFromTarget(world)
      var points: [ScreenPoint] = []
      for corner in unitCorners {
        let (x, y) = local(corner)
        guard let point = transform.screenPoint(dx: dx + x, dy: dy + y) else { return nil }
        points.append(point)
      }
      return points
    }
    guard let anchor = transform.point(for: marker.drawnPosition) else { return nil }
    return unitCorners.map { corner in
      let (x, y) = local(corner)
      return ScreenPoint(x: anchor.x + x, y: anchor.y + y)
    }
  }

  /// The icon's unit-square coordinates under a screen point, or nil when the point misses the
  /// marker's plane (above the horizon for flat markers).
  static func iconPoint(
    of point: ScreenPoint, marker: Marker, icon: ResolvedIcon, transform: CameraTransform
  ) -> (Double, Double)? {
    let angle = marker.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    var offset: (Double, Double)
    if marker.isFlat {
      let world = Mercator.project(marker.drawnPosition, worldSize: transform.worldSize)
      let (dx, dy) = transform.offsetFromTarget(world)
      guard let ground = transform.groundOffset(for: point) else { return nil }
      offset = (ground.dx - dx, ground.dy - dy)
    } else {
      guard let anchor = transform.point(for: marker.drawnPosition) else { return nil }
      offset = (point.x - anchor.x, point.y - anchor.y)
    }
    // Undo the clockwise rotation.
    offset = (offset.0 * c + offset.1 * s, -offset.0 * s + offset.1 * c)
    return (offset.0 / icon.width + marker.groundAnchor.x, offset.1 / icon.height + marker.groundAnchor.y)
  }

  /// The axis-aligned bounds of corners: (minX, minY, maxX, maxY).
  static func bounds(_ corners: [ScreenPoint]) -> (Double, Double, Double, Double) {
    (
      corners.map(\.x).min()!, corners.map(\.y).min()!, corners.map(\.x).max()!, corners.map(\.y).max()!
    )
  }
}

/// Collision behaviours resolved in screen space, highest priority first: required markers
/// (those that hide optional ones become obstacles), then optional markers by zIndex (higher
/// first) and the order they were added in; an optional marker is shown when it overlaps no
/// obstacle, and then becomes one.
enum MarkerCollisions {
  static func resolve(_ ordered: [Marker], layer: MarkerLayerState, transform: CameraTransform) -> [Marker] {
    let scale = transform.viewport.scale
    var obstacles: [(Double, Double, Double, Double)] = []
    var hidden = Set<ObjectIdentifier>()
    func overlaps(_ box: (Double, Double, Double, Double)) -> Bool {
      obstacles.contains { $0.0 < box.2 && box.0 < $0.2 && $0.1 < box.3 && box.1 < $0.3 }
    }
    func box(_ marker: Marker) -> (Double, Double, Double, Double)? {
      MarkerGeometry.corners(marker, icon: layer.icon(of: marker, scale: scale), transform: transform).map(
        MarkerGeometry.bounds)
    }
    for marker in ordered where marker.collisionBehavior == .requiredAndHidesOptional {
      if let box = box(marker) { obstacles.append(box) }
    }
    let optional = ordered.filter { $0.collisionBehavior == .optionalAndHidesLowerPriority }.sorted {
      ($0.zIndex, -$0.sequence) > ($1.zIndex, -$1.sequence)
    }
    for marker in optional {
      guard let box = box(marker), !overlaps(box) else {
        hidden.insert(ObjectIdentifier(marker))
        continue
      }
      obstacles.append(box)
    }
    return ordered.filter { !hidden.contains(ObjectIdentifier($0)) }
  }
}
