import TesseraGeo
import TesseraNumbers

/// A rectangle on screen in points (from the view's top left), such as an overlay's
/// accessibility frame.
public struct ScreenRect: Sendable, Equatable {
  /// The top-left corner, points.
  public var x, y: Double
  /// The size, points.
  public var width, height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }

  /// The smallest rectangle holding `points` (those that project); nil when none does.
  init?(_ points: [ScreenPoint?]) {
    let points = points.compactMap { $0 }
    guard let first = points.first else { return nil }
    var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
    for point in points {
      (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
      (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
    }
    self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }
}
