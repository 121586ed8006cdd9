import Foundation
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A synthetic city in the OpenMapTiles schema, deterministic from a seed, covering the whole
/// world: streets and avenues on a block grid with motorways, trunks, primaries and minor
/// streets by OMT class, named streets, residential, commercial and industrial land, parks with
/// ponds, lakes, buildings with `render_height` / `render_min_height` (towers downtown), place
/// names for cities and districts, and a few POIs. Tiles are generated on request (zoom 0–16;
/// deeper zooms overzoom), so `make demo` and benchmarks need no data files.
public final class DemoCitySource: TileSource {
  package let name: String
  package let metadata: TileSourceMetadata
  let layout: DemoCityLayout

  /// The URL that names the demo city in styles and on the command line.
  public static let defaultURL = "demo://city"

  /// A city built from `seed`.
  package init(seed: UInt64 = 1) {
    layout = DemoCityLayout(seed: seed)
    name = seed == 1 ? DemoCitySource.defaultURL : "\(DemoCitySource.defaultURL)?seed=\(seed)"
    var metadata = TileSourceMetadata(format: .mvt, minZoom: 0, maxZoom: 16)
    metadata.name = "Tessera demo city"
    metadata.description = "A synthetic city in the OpenMapTiles schema, generated from seed \(seed)"
    // Synthetic data: nothing to credit (metadata.attribution stays nil).
    let layers: [(String, [String])] = [
      ("water", ["class"]), ("water_name", ["class", "name", "name_en"]), ("landuse", ["class"]),
      ("landcover", ["class", "subclass"]), ("park", ["class", "name", "name_en"]),
      ("transportation", ["class", "oneway"]), ("transportation_name", ["class", "name", "name_en"]),
      ("building", ["render_height", "render_min_height"]), ("place", ["class", "name", "name_en", "rank"]),
      ("poi", ["class", "subclass", "name", "name_en", "rank"]),
    ]
    metadata.vectorLayers = layers.map { id, fields in
      VectorLayerInfo(
        id: id, fields: Dictionary(uniqueKeysWithValues: fields.map { ($0, "String") }), minZoom: 0, maxZoom: 16)
    }
    self.metadata = metadata
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    guard tile.z <= metadata.maxZoom else { return .noTile }
    return .decoded(.vector(makeTile(tile)))
  }

  /// Generates the vector tile `tile`.
  package func makeTile(_ tile: TileID) -> VectorTile {
    var writer = DemoCityTileWriter(layout: layout, tile: tile)
    writer.writeAll()
    return writer.finish()
  }
}

/// The geometry frame of one tile: city units to tile units (extent 4096), clipping with a
/// buffer of 64 tile units.
struct DemoCityTileFrame {
  let z: Int
  let minX: Double
  let minY: Double
  /// Tile side in city units.
  let size: Double
  static let extent = 4096.0
  static let buffer = 64.0

  init(_ tile: TileID) {
    z = tile.z
    size = 256 * pow(2, Double(17 - tile.z))
    minX = Double(tile.x) * size
    minY = Double(tile.y) * size
  }

  /// City-unit bounds including the buffer.
  var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
    let margin = size * DemoCityTileFrame.buffer / DemoCityTileFrame.extent
    return (minX - margin, minY - margin, minX + size + margin, minY + size + margin)
  }

  func tileUnits(_ x: Double, _ y: Double) -> (Int64, Int64) {
    (
      Int64(clamping: ((x - minX) / size * DemoCityTileFrame.extent).rounded()),
      Int64(clamping: ((y - minY) / size * DemoCityTileFrame.extent).rounded())
    )
  }

  private var clipBox: ClipBox {
    let b = Int64(clamping: DemoCityTileFrame.buffer)
    return ClipBox(minX: -b, minY: -b, maxX: 4096 + b, maxY: 4096 + b)
  }

  /// A closed ring (city units, clockwise on screen), clipped; nil when nothing is left.
  func ring(_ points: [(Double, Double)]) -> [TilePoint]? {
    let clipped = clipBox.clipRing(points.map { tileUnits($0.0, $0.1) })
    guard clipped.count >= 4 else { return nil }
    let ring = clipped.map { TilePoint(x: Int32($0.0), y: Int32($0.1)) }
    return VectorFeature.doubledSignedArea(ring) > 0 ? ring : nil
  }

  /// A rectangle as a clockwise ring.
  func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [TilePoint]? {
    ring([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])
  }

  /// A polyline, clipped into pieces.
  func line(_ points: [(Double, Double)]) -> [[TilePoint]] {
    clipBox.clipLine(points.map { tileUnits($0.0, $0.1) }).map { piece in
      piece.map { TilePoint(x: Int32($0.0), y: Int32($0.1)) }
    }
  }

  /// A point inside the tile (no buffer), or nil.
  func point(_ x: Double, _ y: Double) -> TilePoint? {
    let (tx, ty) = tileUnits(x, y)
    guard tx >= 0, ty >= 0, tx < 4096, ty < 4096 else { return nil }
    return TilePoint(x: Int32(tx), y: Int32(ty))
  }
}
