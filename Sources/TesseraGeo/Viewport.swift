/// The view a camera draws into: its size in points, pixel scale and padding.
public struct Viewport: Sendable, Equatable, Hashable {
  /// Width in points.
  public let width: Double
  /// Height in points.
  public let height: Double
  /// Pixels per point (1, 2, 3, or any positive value); output pixels = points × scale.
  public let scale: Double
  /// Padding: the target is drawn at the centre of the view minus this border.
  public let padding: EdgeInsets

  /// Makes a viewport, or throws if a size is not positive and finite, or padding is negative.
  public init(width: Double, height: Double, scale: Double = 1, padding: EdgeInsets = .zero)
    throws(GeoError)
  {
    guard width.isFinite, height.isFinite, width > 0, height > 0 else {
      throw GeoError.invalidViewport(reason: "size \(width)x\(height) must be positive")
    }
    guard scale.isFinite, scale > 0 else {
      throw GeoError.invalidViewport(reason: "scale \(scale) must be a positive number")
    }
    guard padding.isValid else {
      throw GeoError.invalidViewport(reason: "padding must be finite and not negative")
    }
    self.width = width
    self.height = height
    self.scale = scale
    self.padding = padding
  }

  /// The centre of the padded rectangle, where the camera target is drawn.
  public var paddedCenter: ScreenPoint {
    ScreenPoint(
      x: padding.left + (width - padding.left - padding.right) / 2,
      y: padding.top + (height - padding.top - padding.bottom) / 2)
  }

  /// Width in output pixels (points × scale, rounded).
  public var pixelWidth: Int { Int((width * scale).rounded()) }
  /// Height in output pixels (points × scale, rounded).
  public var pixelHeight: Int { Int((height * scale).rounded()) }
}
