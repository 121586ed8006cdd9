import TesseraNumbers

/// The map-level limits every camera is clamped to: zoom range and the tilt cap.
///
/// Tilt follows Google's rule: at most 30° up to zoom 10, 65° from zoom 16, linear in between.
/// ``raisedTiltCap`` (a map option, at most 85°) raises that cap at every zoom for steeper views;
/// the renderer then draws sky above the horizon.
public struct CameraLimits: Sendable, Equatable, Hashable {
  /// Google's smallest zoom level (`kGMSMinZoomLevel` as Tessera defines it).
  public static let minimumZoomLevel = 0.0
  /// Google's largest zoom level (`kGMSMaxZoomLevel` as Tessera defines it).
  public static let maximumZoomLevel = 22.0
  /// The largest tilt any option can allow, in degrees.
  public static let absoluteMaxTilt = 85.0

  /// The smallest zoom a camera may have.
  public private(set) var minZoom: Double
  /// The largest zoom a camera may have.
  public private(set) var maxZoom: Double
  /// When set, the tilt cap at every zoom is at least this many degrees (≤ 85).
  public private(set) var raisedTiltCap: Double?
  /// The furthest latitude a camera's target reaches, degrees: Google's 85 by default; raster
  /// tiles raise it to Web Mercator's edge (``Mercator/maxLatitude``) so that the top and
  /// bottom rows of the pyramid can be drawn.
  public private(set) var latitudeLimit = Mercator.latitudeLimit

  /// The default limits: zoom 0...22, Google's tilt curve.
  public static let `default` = CameraLimits()

  /// Makes limits with the default zoom range and tilt curve.
  public init() {
    minZoom = CameraLimits.minimumZoomLevel
    maxZoom = CameraLimits.maximumZoomLevel
    raisedTiltCap = nil
  }

  /// Makes limits with a zoom range (clamped to 0...22) and an optional raised tilt cap.
  public init(minZoom: Double, maxZoom: Double, raisedTiltCap: Double? = nil) throws(GeoError) {
    self.init()
    try setZoomRange(min: minZoom, max: maxZoom)
    try setRaisedTiltCap(raisedTiltCap)
  }

  /// Sets the zoom range, as `setMinZoom(_:maxZoom:)` does: refuses min > max; both values are
  /// clamped to Google's 0...22 first.
  public mutating func setZoomRange(min: Double, max: Double) throws(GeoError) {
    try requireFinite(min, "minZoom")
    try requireFinite(max, "maxZoom")
    guard min <= max else { throw GeoError.invalidZoomRange(min: min, max: max) }
    minZoom = Swift.min(Swift.max(min, CameraLimits.minimumZoomLevel), CameraLimits.maximumZoomLevel)
    maxZoom = Swift.min(Swift.max(max, CameraLimits.minimumZoomLevel), CameraLimits.maximumZoomLevel)
  }

  /// Raises the tilt cap to `degrees` (clamped to 0...85) at every zoom; nil restores Google's curve.
  public mutating func setRaisedTiltCap(_ degrees: Double?) throws(GeoError) {
    if let degrees {
      try requireFinite(degrees, "maxTilt")
      raisedTiltCap = Swift.min(Swift.max(degrees, 0), CameraLimits.absoluteMaxTilt)
    } else {
      raisedTiltCap = nil
    }
  }

  /// Lets camera targets reach `degrees` of latitude north and south (clamped to 85 up to Web
  /// Mercator's edge, 85.0511°).
  public mutating func setLatitudeLimit(_ degrees: Double) throws(GeoError) {
    try requireFinite(degrees, "latitudeLimit")
    latitudeLimit = Swift.min(Swift.max(degrees, Mercator.latitudeLimit), Mercator.maxLatitude)
  }

  /// Google's zoom-dependent maximum tilt in degrees: 30 at z ≤ 10, 65 at z ≥ 16, linear between.
  public static func googleMaxTilt(zoom: Double) -> Double {
    if zoom <= 10 { return 30 }
    if zoom >= 16 { return 65 }
    return 30 + (zoom - 10) * 35 / 6
  }

  /// The largest tilt allowed at `zoom`, in degrees.
  public func maxTilt(zoom: Double) -> Double {
    let google = CameraLimits.googleMaxTilt(zoom: zoom)
    guard let raisedTiltCap else { return google }
    return Swift.max(google, raisedTiltCap)
  }
}
