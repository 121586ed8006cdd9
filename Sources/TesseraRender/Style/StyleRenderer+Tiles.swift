import Dispatch
import TesseraData
import TesseraGeo
import TesseraStyle

extension StyleRenderer {
  /// The tiles of every source the visible `layers` draw, and the problems loading them.
  func loadTiles(transform: CameraTransform, layers: [StyleLayer], timings: inout PreparationTimings)
    -> ([String: [RenderTile]], [String])
  {
    var warnings: [String] = []
    var tilesBySource: [String: [RenderTile]] = [:]
    for id in Set(layers.compactMap(\.source)).sorted() {
      guard let source = sources[id] else { continue }
      let (tiles, problems) = resolveTiles(source, transform: transform, timings: &timings)
      tilesBySource[id] = tiles
      warnings += problems
    }
    return (tilesBySource, warnings)
  }

  /// The tiles of `source` for the camera: each covered tile with its own data, an ancestor's
  /// (overzoom) or, when it failed, the nearest ancestor that loads. A vector tile the source
  /// does not have is empty; a missing image or DEM tile is drawn from its nearest ancestor,
  /// as MapLibre does.
  func resolveTiles(_ source: RenderSource, transform: CameraTransform, timings: inout PreparationTimings)
    -> ([RenderTile], [String])
  {
    let covered = source.coveredTiles(for: transform).compactMap { tile in
      source.pyramid.dataTile(for: tile.tile).map { (tile, $0) }
    }
    var unique: [TileID] = []
    var seen = Set<TileID>()
    for (_, data) in covered where seen.insert(data).inserted { unique.append(data) }
    let batch = loader.start(unique, from: source.bound)
    let results = batch.wait(timeout: loadTimeout)
    timings.tileDecode += batch.fetchAndDecodeMilliseconds
    var tiles: [RenderTile] = []
    var warnings: [String] = []
    for (tile, data) in covered {
      switch results[data] {
      case .tile(let content)?:
        tiles.append(RenderTile(tile: tile.tile, wrap: tile.wrap, dataTile: data, content: content))
      case .noTile?:
        guard !source.reparsesOverzoomed, let fallback = fallback(for: data, in: source) else { continue }
        tiles.append(RenderTile(tile: tile.tile, wrap: tile.wrap, dataTile: fallback.0, content: fallback.1))
      case .failed(let error)?:
        warnings.append("source '\(source.id)': \(error)")
        if let fallback = fallback(for: data, in: source) {
          tiles.append(RenderTile(tile: tile.tile, wrap: tile.wrap, dataTile: fallback.0, content: fallback.1))
        }
      case nil:
        warnings.append("source '\(source.id)': tile \(data) did not load within \(loadTimeout) s")
      }
    }
    return (tiles, Array(Set(warnings)).sorted())
  }

  /// How many zoom levels up a missing tile looks for an ancestor (farther ones are too coarse
  /// to help, and MapLibre stops early too).
  static let fallbackDepth = 5

  /// The nearest ancestor of `tile` that loads, at most ``fallbackDepth`` levels up.
  private func fallback(for tile: TileID, in source: RenderSource) -> (TileID, DecodedTile)? {
    var zoom = tile.z - 1
    while zoom >= max(source.pyramid.minZoom, tile.z - StyleRenderer.fallbackDepth) {
      let ancestor = tile.ancestor(atZoom: zoom)
      if let content = loader.load([ancestor], from: source.bound, timeout: loadTimeout)[ancestor]?.decoded {
        return (ancestor, content)
      }
      zoom -= 1
    }
    return nil
  }

}
