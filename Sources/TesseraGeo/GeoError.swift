import TesseraNumbers

/// Invalid input to the camera and projection model.
public enum GeoError: Error, Equatable, CustomStringConvertible {
  /// A value that must be a finite number was NaN or infinite.
  case notFinite(field: String, value: Double)
  /// `setMinZoom(_:maxZoom:)` was given a minimum above the maximum.
  case invalidZoomRange(min: Double, max: Double)
  /// A view size that is not a positive finite number of points, or a bad scale or padding.
  case invalidViewport(reason: String)
  /// A value outside its allowed range.
  case outOfRange(field: String, value: Double, allowed: String)

  public var description: String {
    switch self {
    case .notFinite(let field, let value):
      return "\(field) must be a finite number, got \(value)"
    case .invalidZoomRange(let min, let max):
      return "minimum zoom \(min) is greater than maximum zoom \(max)"
    case .invalidViewport(let reason):
      return "invalid view: \(reason)"
    case .outOfRange(let field, let value, let allowed):
      return "\(field) \(value) is out of range (\(allowed))"
    }
  }
}

/// Throws ``GeoError/notFinite(field:value:)`` unless `value` is finite.
@inlinable
func requireFinite(_ value: Double, _ field: String) throws(GeoError) {
  guard value.isFinite else { throw GeoError.notFinite(field: field, value: value) }
}
