import Foundation
import TesseraNumbers

/// The perspective projection of a camera into a viewport: the math of CAMERA.md.
///
/// The camera sits at distance D = 1.5 · H points from the target (H the full view height),
/// with a vertical field of view of 2·atan(1/3). World offsets (dx, dy) from the target are
/// rotated by the bearing β into (u, v), tilted by θ, and divided by the depth
/// zc = D − v·sinθ − h·cosθ; the principal point is the padded centre (cx, cy).
public struct CameraTransform: Sendable, Equatable {
  /// The (clamped) camera.
  public let camera: Camera
  /// The view.
  public let viewport: Viewport
  /// World width at the camera's zoom, in points.
  public let worldSize: Double
  /// The target in world points.
  public let targetWorld: WorldPoint
  /// Camera distance from the target, in points (1.5 × view height).
  public let cameraDistance: Double
  /// The padded centre (principal point), in screen points.
  public let center: ScreenPoint

  /// sin and cos of the bearing.
  public let sinBearing: Double
  public let cosBearing: Double
  /// sin and cos of the tilt (viewing angle).
  public let sinTilt: Double
  public let cosTilt: Double

  /// The vertical field of view, 2·atan(1/3) radians (≈ 36.87°).
  public static let verticalFieldOfView = 2 * atan(1.0 / 3.0)

  /// Makes the transform of `camera` in `viewport`.
  public init(camera: Camera, viewport: Viewport) {
    self.camera = camera
    self.viewport = viewport
    worldSize = Mercator.worldSize(zoom: camera.zoom)
    targetWorld = Mercator.project(camera.target, worldSize: worldSize)
    cameraDistance = 1.5 * viewport.height
    center = viewport.paddedCenter
    let beta = camera.bearing * .pi / 180
    let theta = camera.viewingAngle * .pi / 180
    sinBearing = sin(beta)
    cosBearing = cos(beta)
    sinTilt = sin(theta)
    cosTilt = cos(theta)
  }

  /// Points per metre at `latitude` at the camera's zoom.
  public func pointsPerMeter(latitude: Double) -> Double {
    Mercator.pointsPerMeter(latitude: latitude, worldSize: worldSize)
  }

  /// The world offset of `point` from the target, x wrapped into [−S/2, S/2) so the nearest
  /// world copy is used.
  public func offsetFromTarget(_ point: WorldPoint) -> (dx: Double, dy: Double) {
    var dx = (point.x - targetWorld.x).truncatingRemainder(dividingBy: worldSize)
    if dx < -worldSize / 2 { dx += worldSize }
    if dx >= worldSize / 2 { dx -= worldSize }
    return (dx, point.y - targetWorld.y)
  }

  /// Projects a world offset (dx, dy) from the target and a height in points above the ground
  /// to the screen; nil when the point is behind the camera.
  public func screenPoint(dx: Double, dy: Double, heightPoints hp: Double = 0) -> ScreenPoint? {
    let u = dx * cosBearing + dy * sinBearing
    let v = -dx * sinBearing + dy * cosBearing
    let zc = cameraDistance - v * sinTilt - hp * cosTilt
    guard zc > 0 else { return nil }
    let scale = cameraDistance / zc
    return ScreenPoint(x: center.x + u * scale, y: center.y + (v * cosTilt - hp * sinTilt) * scale)
  }

  /// Projects a coordinate at `height` metres above the ground to the screen (CAMERA.md
  /// "Projecting a coordinate"); nil when it is behind the camera.
  public func point(for coordinate: Coordinate, height: Double = 0) -> ScreenPoint? {
    let world = Mercator.project(coordinate, worldSize: worldSize)
    let (dx, dy) = offsetFromTarget(world)
    return screenPoint(dx: dx, dy: dy, heightPoints: height * pointsPerMeter(latitude: coordinate.latitude))
  }

  /// The ground offset (dx, dy) from the target under a screen point; nil above the horizon.
  public func groundOffset(for point: ScreenPoint) -> (dx: Double, dy: Double)? {
    let a = (point.x - center.x) / cameraDistance
    let b = (point.y - center.y) / cameraDistance
    let denominator = cosTilt + b * sinTilt
    guard denominator > 0 else { return nil }
    let v = b * cameraDistance / denominator
    let u = a * (cameraDistance - v * sinTilt)
    return (u * cosBearing - v * sinBearing, u * sinBearing + v * cosBearing)
  }

  /// The world point on the ground under a screen point (x not wrapped); nil above the horizon.
  public func worldPoint(for point: ScreenPoint) -> WorldPoint? {
    guard let (dx, dy) = groundOffset(for: point) else { return nil }
    return WorldPoint(x: targetWorld.x + dx, y: targetWorld.y + dy)
  }

  /// The coordinate on the ground under a screen point (CAMERA.md "Unprojecting a point"),
  /// longitude wrapped into [−180, 180); nil above the horizon.
  public func coordinate(for point: ScreenPoint) -> Coordinate? {
    guard let world = worldPoint(for: point) else { return nil }
    let coordinate = Mercator.unproject(world, worldSize: worldSize)
    return Coordinate(
      latitude: coordinate.latitude, longitude: Mercator.wrapLongitude(coordinate.longitude))
  }

  /// The depth zc of a ground point under a screen row; nil when the row is at or above the
  /// horizon.
  public func groundDepth(atScreenY screenY: Double) -> Double? {
    let b = (screenY - center.y) / cameraDistance
    let denominator = cosTilt + b * sinTilt
    guard denominator > 0 else { return nil }
    let v = b * cameraDistance / denominator
    return cameraDistance - v * sinTilt
  }

  /// Whether the horizon shows inside the view (the top row looks above it).
  public var showsHorizon: Bool { groundDepth(atScreenY: 0) == nil }

  /// The screen row of the horizon (may lie outside the view), or nil at tilt 0.
  public var horizonY: Double? {
    guard sinTilt > 1e-12 else { return nil }
    return center.y - cameraDistance * cosTilt / sinTilt
  }

  /// Near and far clip distances along the view axis, in points: near = D/50; far a little
  /// beyond the farthest visible ground point (or 100·D when the horizon shows).
  public var depthRange: (near: Double, far: Double) {
    let near = cameraDistance / 50
    guard let farthest = groundDepth(atScreenY: 0) else { return (near, cameraDistance * 100) }
    return (near, max(farthest * 1.01 + cameraDistance * 0.01, near * 2))
  }

  /// The matrix that maps target-relative world points (dx, dy, height in points, 1) to GL clip
  /// space; a vertex transformed by it lands where ``screenPoint(dx:dy:heightPoints:)`` says.
  ///
  /// Screen y grows downward and GL's upward; rows are flipped on readback, so the image comes
  /// out top row first.
  public func clipMatrix() -> Mat4 {
    let d = cameraDistance
    let w = viewport.width
    let h = viewport.height
    let (near, far) = depthRange
    // View: (dx, dy, hp) → (X, Y, Z) with X = u, Y = v·cosθ − hp·sinθ, Z = zc.
    let view = Mat4(
      cosBearing, sinBearing, 0, 0,
      -sinBearing * cosTilt, cosBearing * cosTilt, -sinTilt, 0,
      sinBearing * sinTilt, -cosBearing * sinTilt, -cosTilt, d,
      0, 0, 0, 1)
    // Projection: clip x = (D·X + (cx − W/2)·Z)/(W/2), clip y = −(D·Y + (cy − H/2)·Z)/(H/2),
    // clip z maps Z = near → −1 and Z = far → +1, clip w = Z.
    let projection = Mat4(
      2 * d / w, 0, (2 * center.x - w) / w, 0,
      0, -2 * d / h, -(2 * center.y - h) / h, 0,
      0, 0, (far + near) / (far - near), -2 * far * near / (far - near),
      0, 0, 1, 0)
    return projection * view
  }

  /// ``clipMatrix()`` for geometry given in a local frame: a point (x, y, z) maps to the world
  /// offset (originX + x·unitsToPoints − targetX, originY + y·unitsToPoints − targetY,
  /// z·heightToPoints). The origin is taken as given, not wrapped: world copies are chosen by
  /// the caller (x beyond 0…worldSize draws in the copies east or west of the target's).
  /// Computing this in double precision keeps vertices exact at zoom 22.
  public func clipMatrix(
    origin: WorldPoint, unitsToPoints: Double, heightToPoints: Double = 1
  ) -> Mat4 {
    let dx = origin.x - targetWorld.x
    let dy = origin.y - targetWorld.y
    return clipMatrix() * Mat4.translation(dx, dy, 0)
      * Mat4.scale(unitsToPoints, unitsToPoints, heightToPoints)
  }
}
