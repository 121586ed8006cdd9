import TesseraNumbers

/// Conversions between the screen and the Earth for one camera and view: Google's
/// `GMSProjection`. Screen points are in points (not pixels), origin top-left.
public struct Projection: Sendable, Equatable {
  /// The transform doing the math.
  public let transform: CameraTransform

  /// The projection of `camera` in `viewport`.
  public init(camera: Camera, viewport: Viewport) {
    transform = CameraTransform(camera: camera, viewport: viewport)
  }

  /// The screen point of a coordinate on the ground; nil when it is behind the camera.
  public func point(for coordinate: Coordinate) -> ScreenPoint? {
    transform.point(for: coordinate)
  }

  /// The screen point of a coordinate `height` metres above the ground; nil behind the camera.
  public func point(for coordinate: Coordinate, height: Double) -> ScreenPoint? {
    transform.point(for: coordinate, height: height)
  }

  /// The coordinate on the ground under a screen point; nil above the horizon.
  public func coordinate(for point: ScreenPoint) -> Coordinate? {
    transform.coordinate(for: point)
  }

  /// The ground under the padded rectangle's corners (CAMERA.md). A corner above the horizon
  /// (only with a raised tilt cap) has no coordinate and is nil.
  public var visibleRegion: VisibleRegion {
    let viewport = transform.viewport
    let padding = viewport.padding
    let left = padding.left
    let right = viewport.width - padding.right
    let top = padding.top
    let bottom = viewport.height - padding.bottom
    return VisibleRegion(
      nearLeft: coordinate(for: ScreenPoint(x: left, y: bottom)),
      nearRight: coordinate(for: ScreenPoint(x: right, y: bottom)),
      farLeft: coordinate(for: ScreenPoint(x: left, y: top)),
      farRight: coordinate(for: ScreenPoint(x: right, y: top)))
  }

  /// Whether the coordinate's screen point lies inside the padded rectangle (edges included).
  public func contains(_ coordinate: Coordinate) -> Bool {
    guard let point = point(for: coordinate) else { return false }
    let viewport = transform.viewport
    let padding = viewport.padding
    return point.x >= padding.left && point.x <= viewport.width - padding.right && point.y >= padding.top
      && point.y <= viewport.height - padding.bottom
  }

  /// How many screen points `meters` metres span at `coordinate`'s latitude at the camera's
  /// zoom: the ground scale at the target's depth (for short distances).
  public func points(forMeters meters: Double, at coordinate: Coordinate) -> Double {
    meters * transform.pointsPerMeter(latitude: coordinate.latitude)
  }
}

/// The four ground corners of the padded view: Google's `GMSVisibleRegion`. Near is the
/// bottom of the screen, far the top; a tilted view gives a trapezoid.
public struct VisibleRegion: Sendable, Equatable {
  public let nearLeft: Coordinate?
  public let nearRight: Coordinate?
  public let farLeft: Coordinate?
  public let farRight: Coordinate?

  /// The smallest bounds holding the corners that exist.
  public var bounds: CoordinateBounds {
    CoordinateBounds(coordinates: [nearLeft, nearRight, farLeft, farRight].compactMap { $0 })
  }
}
