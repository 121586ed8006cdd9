import Dispatch
import TesseraData
import TesseraGeo
import TesseraNumbers
import TesseraStyle

extension StyleRenderer {
  /// The tiles of every source the visible `layers` draw, and the problems loading them. No
  /// tile is waited for beyond ``loadTimeout`` seconds from the start, over all sources and
  /// their ancestors together: a source that does not answer costs a frame that long at most.
  func loadTiles(transform: CameraTransform, layers: [StyleLayer], timings: inout PreparationTimings)
    -> ([String: [RenderTile]], [String])
  {
    let deadline = DispatchTime.now() + loadTimeout
    var warnings: [String] = []
    var tilesBySource: [String: [RenderTile]] = [:]
    for id in Set(layers.compactMap(\.source)).sorted() {
      guard let source = sources[id] else { continue }
      if let image = source.bound.source as? ImageQuadSource {
        tilesBySource[id] = ImageSourcePlacement.tiles(image, transform: transform)
        continue
      }
      let (tiles, problems) = resolveTiles(source, transform: transform, deadline: deadline, timings: &timings)
      tilesBySource[id] = tiles
      warnings += problems
    }
    return (tilesBySource, warnings)
  }

  /// The tiles of `source` for the camera: each covered tile with its own data, an ancestor's
  /// (overzoom) or, when it failed, the nearest ancestor that loads. A vector tile the source
  /// does not have is empty; a missing image or DEM tile is drawn from its nearest ancestor,
  /// as MapLibre does. A tile not loaded by `deadline` is left out with a warning; ancestors
  /// are asked for all at once, never one after another.
  func resolveTiles(
    _ source: RenderSource, transform: CameraTransform, deadline: DispatchTime, timings: inout PreparationTimings
  ) -> ([RenderTile], [String]) {
    let covered = source.coveredTiles(for: transform).compactMap { tile in
      source.pyramid.dataTile(for: tile.tile).map { (tile, $0) }
    }
    var unique: [TileID] = []
    var seen = Set<TileID>()
    for (_, data) in covered where seen.insert(data).inserted { unique.append(data) }
    let batch = loader.start(unique, from: source.bound, generation: tileGeneration)
    let results = batch.wait(until: deadline)
    timings.tileDecode += batch.fetchAndDecodeMilliseconds
    var warnings: [String] = []
    // Tiles to draw from an ancestor: missing images and DEMs, and tiles that failed.
    var needsAncestor = Set<TileID>()
    for (_, data) in covered {
      switch results[data] {
      case .noTile? where !source.reparsesOverzoomed: needsAncestor.insert(data)
      case .failed(let error)?:
        warnings.append("source '\(source.id)': \(error)")
        needsAncestor.insert(data)
      case nil: warnings.append("source '\(source.id)': tile \(data) did not load within \(loadTimeout) s")
      default: break
      }
    }
    let ancestors = nearestAncestors(of: needsAncestor, in: source, deadline: deadline)
    var tiles: [RenderTile] = []
    for (tile, data) in covered {
      if case .tile(let content)? = results[data] {
        tiles.append(RenderTile(tile: tile.tile, wrap: tile.wrap, dataTile: data, content: content))
      } else if let (ancestor, content) = ancestors[data] {
        tiles.append(RenderTile(tile: tile.tile, wrap: tile.wrap, dataTile: ancestor, content: content))
      }
    }
    return (tiles, Array(Set(warnings)).sorted())
  }

  /// How many zoom levels up a missing tile looks for an ancestor (farther ones are too coarse
  /// to help, and MapLibre stops early too).
  static let fallbackDepth = 5

  /// For each of `tiles`, its nearest ancestor (at most ``fallbackDepth`` levels up) that
  /// loads by `deadline`: every candidate is requested in one batch.
  private func nearestAncestors(of tiles: Set<TileID>, in source: RenderSource, deadline: DispatchTime)
    -> [TileID: (TileID, DecodedTile)]
  {
    guard !tiles.isEmpty else { return [:] }
    var candidates: [TileID: [TileID]] = [:]
    var wanted: [TileID] = []
    var seen = Set<TileID>()
    for tile in tiles.sorted() {
      let lowest = max(source.pyramid.minZoom, tile.z - StyleRenderer.fallbackDepth)
      let chain = stride(from: tile.z - 1, through: lowest, by: -1).map { tile.ancestor(atZoom: $0) }
      candidates[tile] = chain
      for ancestor in chain where seen.insert(ancestor).inserted { wanted.append(ancestor) }
    }
    let loaded = loader.start(wanted, from: source.bound, generation: tileGeneration).wait(until: deadline)
    var result: [TileID: (TileID, DecodedTile)] = [:]
    for (tile, chain) in candidates {
      if let ancestor = chain.first(where: { loaded[$0]?.decoded != nil }) {
        result[tile] = (ancestor, loaded[ancestor]!.decoded!)
      }
    }
    return result
  }
}
