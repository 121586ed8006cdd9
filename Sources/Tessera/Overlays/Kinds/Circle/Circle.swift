import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A circle of `radius` metres on the earth's surface around `position` (GMSCircle): the
/// points at that great-circle distance, so it stays true at high latitude and large radii.
public final class Circle: MapOverlay {
  public var position: Coordinate { didSet { changed() } }
  /// Metres.
  public var radius: Double { didSet { changed() } }
  /// Transparent by default, as in the SDK.
  public var fillColor = Color.transparent { didSet { changed() } }
  public var strokeColor = Color.black { didSet { changed() } }
  /// Points.
  public var strokeWidth = 1.0 { didSet { changed() } }

  public init(position: Coordinate, radius: Double) {
    self.position = position
    self.radius = radius
    super.init(kind: CircleKind.self)
  }
}
