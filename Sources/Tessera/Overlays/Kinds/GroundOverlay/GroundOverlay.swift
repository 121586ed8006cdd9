import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A picture lying on the map (GMSGroundOverlay), such as a floor plan over a building: either
/// stretched over `bounds`, or placed with its `anchor` at `position` at the size it has at
/// `zoomLevel` (one picture pixel per point there). `bearing` turns it clockwise about its
/// anchor; `opacity` multiplies its alpha.
public final class GroundOverlay: MapOverlay {
  /// The picture (straight alpha); nil draws nothing, as in the SDK.
  public var icon: RGBAImage? { didSet { changed() } }
  /// South-west and north-east corners the picture is stretched over; nil: `position` and
  /// `zoomLevel` place it.
  public var bounds: CoordinateBounds? { didSet { changed() } }
  /// Where on the earth the anchor lies (with bounds: their centre is used when this is nil).
  public var position: Coordinate? { didSet { changed() } }
  /// The picture's point at `position`, (0, 0) its top left and (1, 1) its bottom right.
  public var anchor = (x: 0.5, y: 0.5) { didSet { changed() } }
  /// The zoom at which the picture shows at its own pixel size (for `position` placement).
  public var zoomLevel = 18.0 { didSet { changed() } }
  /// Degrees clockwise from north.
  public var bearing = 0.0 { didSet { changed() } }
  /// 0…1.
  public var opacity = 1.0 { didSet { changed() } }

  /// A picture stretched over `bounds`.
  public init(bounds: CoordinateBounds, icon: RGBAImage?) {
    self.bounds = bounds
    self.icon = icon
    super.init(kind: GroundOverlayKind.self)
  }

  /// A picture with its centre (or `anchor`) at `position`, shown at its own size at `zoomLevel`.
  public init(position: Coordinate, icon: RGBAImage?, zoomLevel: Double) {
    self.position = position
    self.icon = icon
    self.zoomLevel = zoomLevel
    super.init(kind: GroundOverlayKind.self)
  }

  /// Where the picture's top left, top right, bottom right and bottom left corners lie, or
  /// nil when nothing can be drawn (no picture, empty bounds).
  var corners: [Coordinate]? {
    guard let icon, icon.width > 0, icon.height > 0 else { return nil }
    // Corners are worked out in world points at zoom 0, where a turn is a turn on screen.
    var topLeft: WorldPoint
    var size: (width: Double, height: Double)
    if let bounds {
      guard bounds.isValid, bounds.north > bounds.south else { return nil }
      let east = bounds.east >= bounds.west ? bounds.east : bounds.east + 360
      let northWest = Mercator.project(Coordinate(latitude: bounds.north, longitude: bounds.west), zoom: 0)
      let southEast = Mercator.project(Coordinate(latitude: bounds.south, longitude: east), zoom: 0)
      topLeft = northWest
      size = (southEast.x - northWest.x, southEast.y - northWest.y)
    } else if let position {
      let scale = 1 / Mercator.worldSize(zoom: zoomLevel) * Mercator.worldSize(zoom: 0)
      size = (Double(icon.width) * scale, Double(icon.height) * scale)
      let at = Mercator.project(position, zoom: 0)
      topLeft = WorldPoint(x: at.x - anchor.x * size.width, y: at.y - anchor.y * size.height)
    } else {
      return nil
    }
    guard size.width > 0, size.height > 0 else { return nil }
    let pivot =
      position.map { Mercator.project($0, zoom: 0) }
      ?? WorldPoint(x: topLeft.x + anchor.x * size.width, y: topLeft.y + anchor.y * size.height)
    let angle = bearing * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    let offsets = [(0.0, 0.0), (size.width, 0), (size.width, size.height), (0, size.height)]
    return offsets.map { dx, dy in
      // Relative to the pivot, turned clockwise (y grows southward).
      let (rx, ry) = (topLeft.x + dx - pivot.x, topLeft.y + dy - pivot.y)
      let turned = WorldPoint(x: pivot.x + rx * c - ry * s, y: pivot.y + rx * s + ry * c)
      return Mercator.unproject(turned, zoom: 0)
    }
  }
}
