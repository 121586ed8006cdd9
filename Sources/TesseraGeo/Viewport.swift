import TesseraNumbers

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

  /// The most pixels a side of a view may have. Render targets are smaller still (16384 on
  /// llvmpipe; the device says its own limit); this bound keeps every size arithmetic exact.
  public static let maximumPixels = 1 << 20

  /// Makes a viewport, or throws if a size is under a point or not finite, the view would be
  /// less than a pixel or more than ``maximumPixels`` pixels a side, or padding is negative, not
  /// finite, or leaves no room.
  public init(width: Double, height: Double, scale: Double = 1, padding: EdgeInsets = .zero)
    throws(GeoError)
  {
    guard width.isFinite, height.isFinite, width >= 1, height >= 1 else {
      throw GeoError.invalidViewport(reason: "size \(width)x\(height) must be at least 1x1 point")
    }
    guard scale.isFinite, scale > 0 else {
      throw GeoError.invalidViewport(reason: "scale \(scale) must be a positive number")
    }
    guard (width * scale).rounded() >= 1, (height * scale).rounded() >= 1 else {
      throw GeoError.invalidViewport(
        reason: "\(width)x\(height) points at scale \(scale) is less than one pixel a side")
    }
    let limit = Double(Viewport.maximumPixels)
    guard width * scale <= limit, height * scale <= limit else {
      throw GeoError.invalidViewport(
        reason: "\(width)x\(height) points at scale \(scale) is more than \(Viewport.maximumPixels) pixels a side")
    }
    guard padding.isValid else {
      throw GeoError.invalidViewport(reason: "padding must be finite and not negative")
    }
    guard padding.left + padding.right < width, padding.top + padding.bottom < height else {
      throw GeoError.invalidViewport(
        reason:
          "padding (top \(padding.top), left \(padding.left), bottom \(padding.bottom), right \(padding.right)) "
          + "leaves no room in a \(width)x\(height)-point view")
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
  public var pixelWidth: Int { Int(clamping: (width * scale).rounded()) }
  /// Height in output pixels (points × scale, rounded).
  public var pixelHeight: Int { Int(clamping: (height * scale).rounded()) }
}
