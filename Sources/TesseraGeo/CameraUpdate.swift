import TesseraNumbers

/// A change of camera: Google's `GMSCameraUpdate`. Apply it with ``MapState/move(_:)`` or
/// compute the result with ``MapState/camera(after:)``; the result is clamped to the map's
/// limits and target bounds like any camera.
public enum CameraUpdate: Sendable, Equatable, Hashable {
  /// Zoom +1.
  case zoomIn
  /// Zoom −1.
  case zoomOut
  /// Zoom to a level.
  case zoomTo(Double)
  /// Zoom by a delta; with a point, the coordinate under that screen point stays under it.
  case zoomBy(Double, atPoint: ScreenPoint? = nil)
  /// Move the target, and optionally set the zoom; bearing and tilt stay.
  case setTarget(Coordinate, zoom: Double? = nil)
  /// Replace the whole camera.
  case setCamera(Camera)
  /// Move the view by screen points (x right, y down): the coordinate at the padded centre
  /// offset by (x, y) becomes the target, so the direction follows bearing and tilt.
  case scrollBy(x: Double, y: Double)
  /// Show `bounds` as large as possible inside the view minus the map padding minus `insets`,
  /// with bearing 0 and tilt 0.
  case fitBounds(CoordinateBounds, insets: EdgeInsets)

  /// `fitBounds:` / `fitBounds:withPadding:`: the same padding on every edge (64 points by
  /// default, as the SDK).
  public static func fit(_ bounds: CoordinateBounds, padding: Double = 64) -> CameraUpdate {
    .fitBounds(bounds, insets: EdgeInsets(all: padding))
  }

  /// `fitBounds:withEdgeInsets:`.
  public static func fit(_ bounds: CoordinateBounds, insets: EdgeInsets) -> CameraUpdate {
    .fitBounds(bounds, insets: insets)
  }
}
