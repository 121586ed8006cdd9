import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// An overlay drawn over the map and under the markers (GMSOverlay): overlays draw in `zIndex`
/// order, ties in the order they were added. Changing a property redraws the overlay on the
/// next snapshot of its map.
public class MapOverlay {
  /// Higher draws on top.
  public var zIndex = 0 { didSet { changed() } }
  /// A name for the application's own use.
  public var title: String?
  /// The map showing the overlay.
  public internal(set) weak var map: Map?
  /// The order it was added in (ties of zIndex).
  var sequence = 0

  init() {}

  func changed() { map?.overlaysChanged() }

  /// The points drawing the overlay makes (after geodesic densification, rings of circles,
  /// pieces of spans), counted without making them: checked against ``ContentLimits``.
  var pointCount: Int { 0 }
}

/// A line through coordinates (GMSPolyline): `strokeWidth` points wide in `strokeColor`, with
/// round joins and caps; `geodesic` segments follow great circles.
public final class Polyline: MapOverlay {
  public var path: [Coordinate] { didSet { changed() } }
  /// Points; the SDK's default 1.
  public var strokeWidth = 1.0 { didSet { changed() } }
  /// The SDK's default blue.
  public var strokeColor = Color(r: 0, g: 0, b: 255) { didSet { changed() } }
  public var geodesic = false { didSet { changed() } }
  /// Styles of runs of segments from the start (GMSStyleSpan); empty: `strokeColor` all along.
  public var spans: [StyleSpan] = [] { didSet { changed() } }
  /// Dashes, gaps and dots in points repeated along the whole line; empty: a continuous line.
  public var strokePattern: [PatternItem] = [] { didSet { changed() } }

  public init(path: [Coordinate]) {
    self.path = path
  }

  override var pointCount: Int {
    (geodesic ? OverlayGeometry.geodesicPointCount(path) : path.count) &+ 2 &* spans.count
  }
}

/// An area (GMSPolygon): an outer path and holes, filled and outlined. The fill follows the
/// even-odd rule, so a self-intersecting outline leaves the parts it covers twice empty; paths
/// crossing the antimeridian take the shorter way round, as the SDK draws them.
public final class Polygon: MapOverlay {
  public var path: [Coordinate] { didSet { changed() } }
  public var holes: [[Coordinate]] = [] { didSet { changed() } }
  /// The SDK's default blue.
  public var fillColor = Color(r: 0, g: 0, b: 255) { didSet { changed() } }
  /// None by default, as in the SDK.
  public var strokeColor = Color.transparent { didSet { changed() } }
  /// Points; 0 draws no outline.
  public var strokeWidth = 1.0 { didSet { changed() } }
  public var geodesic = false { didSet { changed() } }

  public init(path: [Coordinate], holes: [[Coordinate]] = []) {
    self.path = path
    self.holes = holes
  }

  override var pointCount: Int {
    ([path] + holes).reduce(0) { $0 &+ (geodesic ? OverlayGeometry.geodesicPointCount($1) : $1.count) &+ 1 }
  }
}

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
  }

  override var pointCount: Int { 361 }
}
