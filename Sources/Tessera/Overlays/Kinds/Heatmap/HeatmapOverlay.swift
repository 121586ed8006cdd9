import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A heatmap of weighted points (the utility library's GMUHeatmapTileLayer), drawn with
/// MapLibre's `heatmap` layer: each point spreads `radius` points; densities map to
/// `gradient`.
public final class HeatmapOverlay: MapOverlay {
  /// A point and its weight (GMUWeightedLatLng).
  public struct WeightedPoint: Equatable, Sendable {
    public var coordinate: Coordinate
    public var intensity: Double

    public init(_ coordinate: Coordinate, intensity: Double = 1) {
      self.coordinate = coordinate
      self.intensity = intensity
    }
  }

  public var points: [WeightedPoint] { didSet { changed() } }
  /// Points (the utility library's default 20).
  public var radius = 20.0 { didSet { changed() } }
  /// Colours at densities 0…1, in order (the utility library's default green at 0.2 to red
  /// at 1); below the first stop the colour fades out.
  public var gradient: [(density: Double, color: Color)] = HeatmapOverlay.defaultGradient { didSet { changed() } }
  /// 0…1 (the utility library's default 0.7).
  public var opacity = 0.7 { didSet { changed() } }
  /// Multiplies every weight.
  public var intensity = 1.0 { didSet { changed() } }

  public static let defaultGradient: [(density: Double, color: Color)] = [
    (0.2, Color(r: 102, g: 225, b: 0)), (1, Color(r: 255, g: 0, b: 0)),
  ]

  public init(points: [WeightedPoint]) {
    self.points = points
    super.init(kind: HeatmapKind.self)
  }
}
