import Dispatch
import Foundation
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraStyle

/// Draws a style: for each frame it loads the tiles the camera needs (on the loader's worker
/// threads), builds the geometry of tiles not yet on the GPU (in parallel), uploads it and
/// textures into a ``GPUResourceCache``, and plans the draw commands.
///
/// Geometry and textures stay cached across frames and cameras until evicted; a new style gets
/// a new revision, so buckets built for an earlier style are never reused.
public final class StyleRenderer: Sendable {
  public let style: Style
  /// The style's sources bound to data, by id (sources that failed to open are absent).
  public let sources: [String: RenderSource]
  public let loader: TileLoader
  /// Seconds to wait for a frame's tiles.
  public let loadTimeout: Double
  let revision: Int

  private static let revisions = Atomic<Int>(0)

  public init(style: Style, sources: [String: RenderSource], loader: TileLoader, loadTimeout: Double = 60) {
    self.style = style
    self.loadTimeout = loadTimeout
    self.sources = sources
    self.loader = loader
    revision = StyleRenderer.revisions.add(1, ordering: .relaxed).newValue
  }

  /// What preparing a frame produced.
  public struct Frame {
    public var commands: [DrawCommand]
    /// Tiles that failed to load (each drawn from an ancestor when one loaded).
    public var warnings: [String]
    /// Tiles drawn, over all sources.
    public var tileCount: Int
    /// Buckets built (tessellated) for this frame; the rest came from the cache.
    public var bucketsBuilt: Int
    /// The colour to clear the frame to when the style starts with an opaque background
    /// (whose draw is then left out).
    public var clearColor: Color?
    /// Where the preparation's time went.
    public var timings: PreparationTimings
  }

  /// The CPU half of a frame, made without any GL call (so on any thread, for instance while
  /// the GL thread compiles shaders): the camera's tiles loaded and every bucket they need
  /// tessellated.
  public struct PreparedTiles: Sendable {
    let transform: CameraTransform
    let tiles: [String: [RenderTile]]
    let warnings: [String]
    let geometries: [BucketKey: BucketGeometry]
    let timings: PreparationTimings
  }

  /// The style layers visible at the camera of `transform`, with their positions in the style.
  func visibleLayers(_ transform: CameraTransform) -> [(index: Int, layer: StyleLayer)] {
    let zoom = transform.camera.zoom - 1
    return style.layers.enumerated().filter { $0.element.isVisible(atZoom: zoom) }.map {
      (index: $0.offset, layer: $0.element)
    }
  }

  /// Loads the tiles `transform` needs and tessellates all their buckets; no GL.
  public func prepareTiles(transform: CameraTransform) -> PreparedTiles {
    let layers = visibleLayers(transform).map(\.layer)
    var timings = PreparationTimings()
    let (tiles, warnings) = loadTiles(transform: transform, layers: layers, timings: &timings)
    let built = buildBuckets(layers: layers, tiles: tiles, isCached: { _ in false }, timings: &timings)
    return PreparedTiles(
      transform: transform, tiles: tiles, warnings: warnings, geometries: Dictionary(uniqueKeysWithValues: built),
      timings: timings)
  }

  /// Loads, builds and uploads what `transform` needs and returns the frame's draw commands,
  /// in layer slots starting at `layerOffset`. `prepared` (made by ``prepareTiles(transform:)``
  /// for the same camera) supplies the tiles and buckets instead of loading and building them.
  public func prepareFrame(
    transform: CameraTransform, pixelRatio: Double, resources: GPUResourceCache, layerOffset: Int = 0,
    prepared: PreparedTiles? = nil
  ) throws(GLError) -> Frame {
    resources.beginFrame()
    let layers = visibleLayers(transform)
    let usable = prepared.flatMap { $0.transform == transform ? $0 : nil }
    var timings = usable?.timings ?? PreparationTimings()
    let gpuStart: DispatchTime
    let tilesBySource: [String: [RenderTile]]
    let warnings: [String]
    if let usable {
      (tilesBySource, warnings) = (usable.tiles, usable.warnings)
      gpuStart = DispatchTime.now()
    } else {
      let loadStart = DispatchTime.now()
      (tilesBySource, warnings) = loadTiles(transform: transform, layers: layers.map(\.layer), timings: &timings)
      gpuStart = DispatchTime.now()
      timings.tileWait = milliseconds(loadStart, gpuStart)
    }
    let tessellatedBefore = timings.tessellation
    let built = try uploadBuckets(
      layers: layers.map(\.layer), tiles: tilesBySource, resources: resources, prebuilt: usable?.geometries ?? [:],
      timings: &timings)
    let textures = try uploadTextures(
      layers: layers.map(\.layer), tiles: tilesBySource, resources: resources, timings: &timings)
    let planStart = DispatchTime.now()
    timings.upload = milliseconds(gpuStart, planStart) - (timings.tessellation - tessellatedBefore)
    let input = StyleFrameInput(
      transform: transform, pixelRatio: pixelRatio, layers: layers, tiles: tilesBySource, textures: textures,
      revision: revision, light: style.light)
    let plan = StyleFramePlanner.plan(input, layerOffset: layerOffset)
    timings.commandPlanning = milliseconds(planStart, DispatchTime.now())
    return Frame(
      commands: plan.commands, warnings: warnings, tileCount: tilesBySource.values.reduce(0) { $0 + $1.count },
      bucketsBuilt: built, clearColor: plan.clearColor, timings: timings)
  }

  // MARK: Tiles

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

  // MARK: Buckets

  /// Uploads the buckets not yet cached, taken from `prebuilt` or built (in parallel); returns
  /// how many were uploaded.
  private func uploadBuckets(
    layers: [StyleLayer], tiles: [String: [RenderTile]], resources: GPUResourceCache,
    prebuilt: [BucketKey: BucketGeometry], timings: inout PreparationTimings
  ) throws(GLError) -> Int {
    var ready: [(BucketKey, BucketGeometry)] = []
    let built = buildBuckets(
      layers: layers, tiles: tiles,
      isCached: { key in
        if resources.containsBucket(key) { return true }
        guard let geometry = prebuilt[key] else { return false }
        ready.append((key, geometry))
        return true
      }, timings: &timings)
    for (key, geometry) in ready + built { try resources.insert(geometry, for: key) }
    return ready.count + built.count
  }

  /// Builds (in parallel) the buckets of `tiles` that `isCached` does not claim. A bucket holds
  /// its data tile's geometry evaluated at the drawn tiles' zoom, so the overzoomed tiles of
  /// one ancestor share one bucket.
  func buildBuckets(
    layers: [StyleLayer], tiles: [String: [RenderTile]], isCached: (BucketKey) -> Bool,
    timings: inout PreparationTimings
  ) -> [(BucketKey, BucketGeometry)] {
    struct Job: Sendable {
      let content: VectorTile
      let zoom: Int
      let overscale: Double
      let layers: [StyleLayer]
      let keys: [BucketKey]
    }
    var jobs: [Job] = []
    var queued = Set<BucketKey>()
    for (source, sourceTiles) in tiles.sorted(by: { $0.key < $1.key }) {
      let sourceLayers = layers.filter { $0.source == source && BucketBuilder.hasBuckets($0.type) }
      guard !sourceLayers.isEmpty else { continue }
      for tile in sourceTiles {
        guard case .vector(let vector) = tile.content else { continue }
        var missing: [StyleLayer] = []
        var keys: [BucketKey] = []
        for layer in sourceLayers {
          let key = BucketKey(
            source: source, tile: tile.dataTile, zoom: tile.tile.z, layer: layer.id, revision: revision)
          guard queued.insert(key).inserted, !isCached(key) else { continue }
          missing.append(layer)
          keys.append(key)
        }
        guard !missing.isEmpty else { continue }
        let overscale = Double(1 << min(max(tile.tile.z - tile.dataTile.z, 0), 30))
        jobs.append(Job(content: vector, zoom: tile.tile.z, overscale: overscale, layers: missing, keys: keys))
      }
    }
    guard !jobs.isEmpty else { return [] }
    let buildStart = DispatchTime.now()
    let results = StyleRenderer.parallelMap(jobs) { job in
      job.layers.map {
        BucketBuilder.build(job.content, layer: $0, zoom: Double(job.zoom), overscale: job.overscale)
      }
    }
    timings.tessellation += milliseconds(buildStart, DispatchTime.now())
    return zip(jobs, results).flatMap { job, geometries in zip(job.keys, geometries).map { ($0, $1) } }
  }

  // MARK: Textures

  /// Uploads the raster images and prepared hillshade slopes the frame needs; returns each
  /// source's texture keys by data tile.
  private func uploadTextures(
    layers: [StyleLayer], tiles: [String: [RenderTile]], resources: GPUResourceCache,
    timings: inout PreparationTimings
  ) throws(GLError) -> [String: [TileID: TextureKey]] {
    var keys: [String: [TileID: TextureKey]] = [:]
    for (source, sourceTiles) in tiles.sorted(by: { $0.key < $1.key }) {
      let types = Set(layers.filter { $0.source == source }.map(\.type))
      if types.contains(.raster) {
        for tile in sourceTiles {
          guard case .raster(let image) = tile.content else { continue }
          let key = TextureKey(source: source, tile: tile.dataTile, kind: .raster)
          keys[source, default: [:]][tile.dataTile] = key
          if resources.texture(key) == nil {
            let premultiplied = image.premultipliedAlpha()
            _ = try resources.insertTexture(
              key, width: image.width, height: image.height, pixels: premultiplied.pixels)
          }
        }
      }
      if types.contains(.hillshade) {
        keys[source, default: [:]].merge(
          try uploadHillshade(
            source: source, maxZoom: sources[source]?.pyramid.maxZoom ?? 15, tiles: sourceTiles, resources: resources,
            timings: &timings)
        ) { a, _ in a }
      }
    }
    return keys
  }

  /// Prepares (in parallel) and uploads the slope textures of DEM tiles, borders filled from
  /// the neighbours loaded in the same frame.
  private func uploadHillshade(
    source: String, maxZoom: Int, tiles: [RenderTile], resources: GPUResourceCache, timings: inout PreparationTimings
  ) throws(GLError) -> [TileID: TextureKey] {
    var dems: [TileID: DEMTile] = [:]
    for tile in tiles { if case .dem(let dem) = tile.content { dems[tile.dataTile] = dem } }
    var keys: [TileID: TextureKey] = [:]
    var jobs: [(key: TextureKey, dem: DEMTile, neighbours: [DEMTile?], zoom: Int)] = []
    for tile in dems.keys.sorted() {
      let side = tile.tilesPerSide
      let neighbours: [DEMTile?] = HillshadePreparation.neighbourOffsets.map { offset in
        let y = tile.y + offset.dy
        guard y >= 0, y < side else { return nil }
        return dems[TileID(z: tile.z, x: ((tile.x + offset.dx) % side + side) % side, y: y)]
      }
      var mask: UInt8 = 0
      for (index, neighbour) in neighbours.enumerated() where neighbour != nil { mask |= 1 << UInt8(index) }
      let key = TextureKey(source: source, tile: tile, kind: .hillshade(neighbours: mask))
      keys[tile] = key
      if resources.texture(key) == nil { jobs.append((key, dems[tile]!, neighbours, tile.z)) }
    }
    let prepareStart = DispatchTime.now()
    let prepared = StyleRenderer.parallelMap(jobs) { job in
      HillshadePreparation.prepare(job.dem, neighbours: job.neighbours, zoom: job.zoom, maxZoom: maxZoom)
    }
    timings.tessellation += milliseconds(prepareStart, DispatchTime.now())
    for (job, pixels) in zip(jobs, prepared) {
      _ = try resources.insertTexture(job.key, width: job.dem.width, height: job.dem.height, pixels: pixels)
    }
    return keys
  }

  // MARK: Parallel work

  /// `transform` applied to every element on all cores; results in input order.
  static func parallelMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @Sendable (Element) -> Result
  ) -> [Result] {
    guard elements.count > 1 else { return elements.map(transform) }
    let results = Mutex<[Int: Result]>([:])
    DispatchQueue.concurrentPerform(iterations: elements.count) { index in
      let result = transform(elements[index])
      results.withLock { $0[index] = result }
    }
    return results.withLock { table in (0..<elements.count).map { table[$0]! } }
  }
}

/// Where the time of preparing a frame went, in milliseconds.
public struct PreparationTimings: Sendable, Equatable {
  /// Waiting for the frame's tiles (wall time on the rendering thread).
  public var tileWait = 0.0
  /// Fetching and decoding the tiles this frame started loading, summed over the loader's
  /// worker threads (so it can exceed ``tileWait``).
  public var tileDecode = 0.0
  /// Building buckets (tessellation) and preparing hillshade slopes (wall time, all cores).
  public var tessellation = 0.0
  /// Uploading geometry and textures to the GPU (and converting rasters to premultiplied).
  public var upload = 0.0
  /// Planning the draw commands.
  public var commandPlanning = 0.0

  public init() {}
}

/// Milliseconds between two instants.
func milliseconds(_ from: DispatchTime, _ to: DispatchTime) -> Double {
  Double(to.uptimeNanoseconds - from.uptimeNanoseconds) / 1e6
}
