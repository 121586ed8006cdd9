import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

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
    super.init(kind: PolylineKind.self)
  }
}
