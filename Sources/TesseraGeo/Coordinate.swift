import TesseraNumbers

/// A geographic position on the WGS84 sphere, in degrees.
public struct Coordinate: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// Degrees north of the equator (negative south).
  public var latitude: Double
  /// Degrees east of Greenwich (negative west).
  public var longitude: Double

  /// Makes a coordinate as given; no clamping or wrapping.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Whether both values are finite numbers.
  public var isFinite: Bool { latitude.isFinite && longitude.isFinite }

  public var description: String { "\(latitude),\(longitude)" }
}

/// A point in Web Mercator world space at some zoom, in points: x grows east, y grows south,
/// (0, 0) is the north-west corner of the world (latitude ≈ 85.05°, longitude −180°).
public struct WorldPoint: Sendable, Equatable, Hashable {
  /// Points east of the world's west edge.
  public var x: Double
  /// Points south of the world's north edge.
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A point on the screen in points: x to the right, y down, (0, 0) is the top-left corner.
public struct ScreenPoint: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// Points from the left edge.
  public var x: Double
  /// Points from the top edge.
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public var description: String { "\(x) \(y)" }
}

/// Space reserved along each edge of the view, in points (UIEdgeInsets' order).
public struct EdgeInsets: Sendable, Equatable, Hashable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double

  public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// Insets of `value` on every edge.
  public init(all value: Double) {
    self.init(top: value, left: value, bottom: value, right: value)
  }

  /// No insets.
  public static let zero = EdgeInsets()

  /// Whether all four values are finite and not negative.
  public var isValid: Bool {
    [top, left, bottom, right].allSatisfy { $0.isFinite && $0 >= 0 }
  }
}
