import Foundation
import Synchronization
import TesseraGeo
import TesseraNumbers

/// Contour lines made from a DEM source (`contours://` followed by the DEM's reference): one
/// vector layer `contour` whose lines carry `ele` (metres) and `index` (true for index
/// contours, every fifth line). The heights are sampled on a 128-cell grid per tile from the
/// DEM at the tile's zoom (or its deepest, overzoomed), across DEM tile borders, so lines join
/// from tile to tile; then smoothed. Tiles are cached by the map's tile cache like any other.
package final class ContourSource: TileSource {
  package let name: String
  package let metadata: TileSourceMetadata
  private let dem: any TileSource
  private let encoding: DEMEncoding
  /// Decoded DEM tiles, the most recent last (neighbouring contour tiles share them).
  private let demTiles = Mutex<(tiles: [TileID: DEMTile?], order: [TileID])>(([:], []))

  /// The grid cells across a tile.
  static let gridSize = 128
  /// The shallowest zoom with contours (below it lines would be noise).
  package static let minimumZoom = 9
  /// DEM tiles kept decoded.
  static let cachedDEMTiles = 48

  /// Contours over `dem`, whose heights are encoded as `encoding` says, else as its metadata
  /// says.
  package init(dem: any TileSource, encoding: DEMEncoding? = nil, name: String) throws(TileSourceError) {
    let demMetadata = dem.metadata
    guard let encoding = encoding ?? demMetadata.encoding, demMetadata.format.isRaster || demMetadata.format == .unknown
    else {
      throw TileSourceError.open(
        source: name, reason: "contours need a raster DEM source with an encoding (terrarium or mapbox)")
    }
    self.dem = dem
    self.encoding = encoding
    self.name = name
    var metadata = TileSourceMetadata(
      format: .mvt, minZoom: Self.minimumZoom, maxZoom: max(demMetadata.maxZoom + 2, Self.minimumZoom))
    metadata.name = "Contours of \(demMetadata.name ?? dem.name)"
    metadata.bounds = demMetadata.bounds
    metadata.attribution = demMetadata.attribution
    metadata.vectorLayers = [
      VectorLayerInfo(
        id: "contour", fields: ["ele": "Number", "index": "Boolean"], minZoom: Self.minimumZoom,
        maxZoom: metadata.maxZoom)
    ]
    self.metadata = metadata
  }

  /// The interval between contour lines at `zoom`, metres; index contours are every fifth.
  package static func interval(zoom: Int) -> Double {
    switch zoom {
    case ..<11: return 200
    case 11: return 100
    case 12: return 50
    case 13: return 20
    default: return 10
    }
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    guard tile.z >= metadata.minZoom, tile.z <= metadata.maxZoom else { return .noTile }
    let demZoom = min(tile.z, dem.metadata.maxZoom)
    let size = Self.gridSize
    let scale = exp2(Double(demZoom - tile.z))
    var heights = [Float](repeating: .nan, count: (size + 1) * (size + 1))
    var anyHeight = false
    for row in 0...size {
      for column in 0...size {
        let x = (Double(tile.x) + Double(column) / Double(size)) * scale
        let y = (Double(tile.y) + Double(row) / Double(size)) * scale
        if let height = try self.height(x: x, y: y, zoom: demZoom) {
          heights[row * (size + 1) + column] = height
          anyHeight = true
        }
      }
    }
    guard anyHeight else { return .noTile }
    let interval = Self.interval(zoom: tile.z)
    let lines = ContourLines.lines(heights: heights, size: size, interval: interval)
    guard !lines.isEmpty else { return .noTile }
    var layer = VectorTileLayer(name: "contour", keys: ["ele", "index"], values: [.bool(false), .bool(true)])
    var levels: [Double: UInt32] = [:]
    let extent = Double(layer.extent) / Double(size)
    for line in lines {
      let smoothed = ContourLines.smoothed(line)
      let level: UInt32
      if let known = levels[line.level] {
        level = known
      } else {
        level = UInt32(clamping: layer.values.count)
        layer.values.append(.number(line.level))
        levels[line.level] = level
      }
      let isIndex = (line.level / interval).rounded().truncatingRemainder(dividingBy: 5) == 0
      let points = smoothed.points.map {
        TilePoint(x: Int32(clamping: ($0.x * extent).rounded()), y: Int32(clamping: ($0.y * extent).rounded()))
      }
      layer.features.append(
        VectorFeature(type: .lineString, tags: [0, level, 1, isIndex ? 1 : 0], geometry: [points]))
    }
    var vector = VectorTile(layers: [layer])
    vector.tile = tile
    return .decoded(.vector(vector))
  }

  /// The height at world position (`x`, `y`) in tile units of zoom `zoom` (bilinear between
  /// the DEM's pixel centres, across tile borders); nil where the DEM has no tile.
  private func height(x: Double, y: Double, zoom: Int) throws(TileSourceError) -> Float? {
    let demSize = Double(dem.metadata.tileSize ?? 256)
    let px = x * demSize - 0.5
    let py = y * demSize - 0.5
    let (x0, y0) = (px.rounded(.down), py.rounded(.down))
    let (fx, fy) = (px - x0, py - y0)
    let side = Int(clamping: demSize)
    let tiles = 1 << zoom
    func sample(_ gx: Int, _ gy: Int) throws(TileSourceError) -> Float? {
      let row = min(max(gy, 0), tiles * side - 1)
      let column = ((gx % (tiles * side)) + tiles * side) % (tiles * side)
      guard let tile = TileID(checkedZ: zoom, x: column / side, y: row / side), let heights = try demTile(tile) else {
        return nil
      }
      return heights.height(x: (column % side) * heights.width / side, y: (row % side) * heights.height / side)
    }
    let (ix, iy) = (Int(clamping: x0), Int(clamping: y0))
    guard let a = try sample(ix, iy), let b = try sample(ix + 1, iy), let c = try sample(ix, iy + 1),
      let d = try sample(ix + 1, iy + 1)
    else { return nil }
    let top = Double(a) + (Double(b) - Double(a)) * fx
    let bottom = Double(c) + (Double(d) - Double(c)) * fx
    return Float(top + (bottom - top) * fy)
  }

  /// The decoded DEM tile `tile`, kept for the next contour tiles; nil where the DEM has none.
  private func demTile(_ tile: TileID) throws(TileSourceError) -> DEMTile? {
    if let known = demTiles.withLock({ $0.tiles[tile] }) { return known }
    var decoded: DEMTile?
    switch try dem.fetch(tile) {
    case .noTile:
      decoded = nil
    case .decoded(.dem(let heights)):
      decoded = heights
    case .decoded:
      decoded = nil
    case .data(let bytes):
      do {
        if case .dem(let heights) = try TileDecoder.decode(bytes, as: .dem(encoding)) { decoded = heights }
      } catch {
        throw TileSourceError.tileDecode(source: dem.name, tile: tile, reason: error.reason)
      }
    }
    demTiles.withLock { cache in
      if cache.tiles.updateValue(decoded, forKey: tile) == nil { cache.order.append(tile) }
      while cache.order.count > Self.cachedDEMTiles { cache.tiles[cache.order.removeFirst()] = nil }
    }
    return decoded
  }
}
