import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

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
    super.init(kind: PolygonKind.self)
  }
}
