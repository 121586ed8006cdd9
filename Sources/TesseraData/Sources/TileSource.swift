import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// What a tile source holds.
package enum TileFormat: String, Sendable, Equatable {
  /// Mapbox Vector Tiles (MBTiles `pbf`, PMTiles `mvt`).
  case mvt
  case png
  case jpeg
  case webp
  case unknown

  /// Reads the names used by MBTiles, PMTiles, TileJSON and file extensions.
  package init(name: String) {
    switch name.lowercased() {
    case "pbf", "mvt", "application/vnd.mapbox-vector-tile", "application/x-protobuf": self = .mvt
    case "png", "image/png": self = .png
    case "jpg", "jpeg", "image/jpeg": self = .jpeg
    case "webp", "image/webp": self = .webp
    default: self = .unknown
    }
  }

  /// Whether tiles are images.
  package var isRaster: Bool { self == .png || self == .jpeg || self == .webp }
}

/// How elevation is packed into the pixels of a DEM tile.
package enum DEMEncoding: String, Sendable, Equatable {
  /// height = R·256 + G + B/256 − 32768 metres.
  case terrarium
  /// Mapbox terrain-RGB: height = −10000 + (R·65536 + G·256 + B) · 0.1 metres.
  case mapbox

  /// The height, metres, that a pixel's `red`, `green` and `blue` (0…255) encode.
  package func height(red: Double, green: Double, blue: Double) -> Double {
    switch self {
    case .terrarium: return red * 256 + green + blue / 256 - 32768
    case .mapbox: return -10000 + (red * 65536 + green * 256 + blue) * 0.1
    }
  }
}

/// One entry of TileJSON's `vector_layers`.
package struct VectorLayerInfo: Sendable, Equatable {
  package var id: String
  /// Attribute names and their types as the tileset describes them.
  package var fields: [String: String]
  package var minZoom: Int?
  package var maxZoom: Int?
}

/// What a tile source says about itself (TileJSON semantics, from MBTiles metadata, the
/// PMTiles header and metadata, a folder's TileJSON, or flags).
package struct TileSourceMetadata: Sendable, Equatable {
  package var name: String?
  package var description: String?
  package var attribution: String?
  package var format: TileFormat
  /// Zoom range with tiles.
  package var minZoom: Int
  package var maxZoom: Int
  package var bounds: CoordinateBounds?
  /// Suggested centre and zoom.
  package var center: (coordinate: Coordinate, zoom: Double)?
  package var vectorLayers: [VectorLayerInfo]
  /// For DEM tilesets: how heights are encoded.
  package var encoding: DEMEncoding?
  /// Tile size in pixels (raster/DEM; 256 when unstated), or nil.
  package var tileSize: Int?
  /// How many tiles the source holds, when known.
  package var tileCount: Int?
  /// Everything the metadata said, as JSON.
  package var raw: JSONObject
  /// Values the metadata gave that were out of range and ignored, one message each.
  package var problems: [String] = []

  package init(format: TileFormat, minZoom: Int = 0, maxZoom: Int = 22) {
    self.format = format
    self.minZoom = minZoom
    self.maxZoom = maxZoom
    vectorLayers = []
    raw = JSONObject()
  }

  package static func == (a: TileSourceMetadata, b: TileSourceMetadata) -> Bool {
    a.name == b.name && a.format == b.format && a.minZoom == b.minZoom && a.maxZoom == b.maxZoom && a.bounds == b.bounds
      && a.vectorLayers == b.vectorLayers && a.encoding == b.encoding && a.raw == b.raw
  }
}

/// The result of fetching one tile from a source.
package enum TileFetch: Sendable {
  /// Encoded bytes as stored (vector tiles possibly gzip-compressed).
  case data([UInt8])
  /// An already-decoded tile (synthetic sources).
  case decoded(DecodedTile)
  /// The source has no tile here (distinct from an error).
  case noTile
}

/// A source of tiles: an archive, a folder, a URL template or a generator.
///
/// `fetch` is called from worker threads, concurrently; implementations are thread-safe.
package protocol TileSource: AnyObject, Sendable {
  /// Names the source in messages (a path or URL).
  var name: String { get }
  var metadata: TileSourceMetadata { get }
  /// The tile's content, "no tile here", or an error naming the source and tile.
  func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch
  /// What tile caches shared between maps key its tiles by: the same for sources giving the
  /// same tiles, different otherwise (by default its ``name``).
  var cacheIdentity: String { get }
}

extension TileSource {
  package var cacheIdentity: String { name }
}

/// A source that cannot be opened, or a tile that cannot be read or decoded.
package enum TileSourceError: Error, Equatable, CustomStringConvertible {
  /// The source cannot be used at all (missing file, not a database, bad magic…).
  case open(source: String, reason: String)
  /// One tile could not be read.
  case tileRead(source: String, tile: TileID, reason: String)
  /// One tile's bytes could not be decoded.
  case tileDecode(source: String, tile: TileID, reason: String)

  package var description: String {
    switch self {
    case .open(let source, let reason): return "\(source): \(reason)"
    case .tileRead(let source, let tile, let reason): return "\(source): tile \(tile): \(reason)"
    case .tileDecode(let source, let tile, let reason): return "\(source): tile \(tile): cannot decode: \(reason)"
    }
  }
}
