import TesseraNumbers

/// Where the map camera looks from: Google's `GMSCameraPosition`.
///
/// Every initializer clamps, as the SDK does: latitude to [−85, 85], longitude wrapped into
/// [−180, 180), bearing wrapped into [0, 360), zoom to the limits' range, tilt to
/// [0, maxTilt(zoom)]. NaN or infinite values are rejected with ``GeoError/notFinite(field:value:)``.
public struct Camera: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// The coordinate drawn at the centre of the padded view.
  public let target: Coordinate
  /// Zoom level: the world is 256 · 2^zoom points wide.
  public let zoom: Double
  /// Degrees clockwise from north that the top of the screen points to, in [0, 360).
  public let bearing: Double
  /// Tilt in degrees from nadir (0 looks straight down).
  public let viewingAngle: Double

  /// Makes a clamped camera, or throws if a value is NaN or infinite.
  public init(
    target: Coordinate, zoom: Double, bearing: Double = 0, viewingAngle: Double = 0,
    limits: CameraLimits = .default
  ) throws(GeoError) {
    try requireFinite(target.latitude, "latitude")
    try requireFinite(target.longitude, "longitude")
    try requireFinite(zoom, "zoom")
    try requireFinite(bearing, "bearing")
    try requireFinite(viewingAngle, "viewingAngle")
    let latitude = min(max(target.latitude, -limits.latitudeLimit), limits.latitudeLimit)
    self.target = Coordinate(latitude: latitude, longitude: Mercator.wrapLongitude(target.longitude))
    self.zoom = min(max(zoom, limits.minZoom), limits.maxZoom)
    let wrappedBearing = bearing.truncatingRemainder(dividingBy: 360)
    self.bearing = wrappedBearing < 0 ? wrappedBearing + 360 : (wrappedBearing == 360 ? 0 : wrappedBearing)
    self.viewingAngle = min(max(viewingAngle, 0), limits.maxTilt(zoom: self.zoom))
  }

  /// Makes a clamped camera from latitude and longitude in degrees.
  public init(
    latitude: Double, longitude: Double, zoom: Double, bearing: Double = 0,
    viewingAngle: Double = 0, limits: CameraLimits = .default
  ) throws(GeoError) {
    try self.init(
      target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, bearing: bearing,
      viewingAngle: viewingAngle, limits: limits)
  }

  /// This camera clamped again to other limits (zoom first, then tilt at the new zoom).
  public func clamped(to limits: CameraLimits) -> Camera {
    // Values are finite already, so this cannot throw.
    (try? Camera(
      target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle, limits: limits))!
  }

  public var description: String {
    "target \(target.latitude),\(target.longitude) zoom \(zoom) bearing \(bearing) tilt \(viewingAngle)"
  }
}

extension Camera {
  /// Zoom levels between Google's zoom and a MapLibre style's: styles count zooms in 512-point
  /// tiles, Google in 256-point ones, so a style's zoom is one less.
  public static let styleZoomOffset = 1.0

  /// The zoom MapLibre styles see this camera at (style expressions, layer zoom ranges). A
  /// style's zoom never goes below 0: below Google zoom 1 (a world smaller than one 512-point
  /// tile) styles are evaluated at 0, as MapLibre draws its smallest world.
  public var styleZoom: Double { max(zoom - Camera.styleZoomOffset, 0) }

  /// The camera zoom of a MapLibre style zoom (render tests, a style's own `zoom`).
  public static func zoom(forStyleZoom styleZoom: Double) -> Double { styleZoom + styleZoomOffset }
}
