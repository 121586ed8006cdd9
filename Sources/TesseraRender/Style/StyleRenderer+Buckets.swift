import Dispatch
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle

extension StyleRenderer {
  /// Uploads the buckets not yet cached, taken from `prebuilt` or built (in parallel); returns
  /// how many were uploaded.
  func uploadBuckets(
    layers: [DrawnLayer], tiles: [String: [RenderTile]], resources: GPUResourceCache,
    prebuilt: [BucketKey: BuiltBucket], states: StateSnapshot, timings: inout PreparationTimings
  ) throws -> Int {
    var ready: [(BucketKey, BuiltBucket)] = []
    let built = try buildBuckets(
      layers: layers, tiles: tiles, states: states,
      isCached: { key in
        if resources.containsMeshes(ResourceKey(key)) { return true }
        guard let geometry = prebuilt[key] else { return false }
        ready.append((key, geometry))
        return true
      }, timings: &timings)
    for (key, geometry) in ready + built { try resources.insertMeshes(geometry, for: ResourceKey(key)) }
    return ready.count + built.count
  }

  /// Builds (in parallel) the buckets of `tiles` that `isCached` does not claim. A bucket holds
  /// its data tile's geometry evaluated at the drawn tiles' zoom, so the overzoomed tiles of
  /// one ancestor share one bucket. Throws ``FrameLimitError`` when the geometry outgrows
  /// ``FrameLimits/geometryBytes`` (building stops there).
  func buildBuckets(
    layers: [DrawnLayer], tiles: [String: [RenderTile]], states: StateSnapshot, isCached: (BucketKey) -> Bool,
    timings: inout PreparationTimings
  ) throws(FrameLimitError) -> [(BucketKey, BuiltBucket)] {
    struct Job: Sendable {
      let content: VectorTile
      let zoom: Int
      let overscale: Double
      let layers: [DrawnLayer]
      let keys: [BucketKey]
      let states: FeatureStates
    }
    var jobs: [Job] = []
    var queued = Set<BucketKey>()
    for (source, sourceTiles) in tiles.sorted(by: { $0.key < $1.key }) {
      let sourceLayers = layers.filter { $0.layer.source == source && $0.renderer.buildsBuckets }
      guard !sourceLayers.isEmpty else { continue }
      for tile in sourceTiles {
        guard case .vector(var vector) = tile.content else { continue }
        vector.tile = tile.dataTile
        var missing: [DrawnLayer] = []
        var keys: [BucketKey] = []
        for drawn in sourceLayers {
          let layer = drawn.layer
          let key = BucketKey(
            source: source, tile: tile.dataTile, zoom: tile.tile.z, layer: bucketName(layer), revision: revision,
            stateVersion: layer.readsFeatureState ? states.version : 0)
          guard queued.insert(key).inserted, !isCached(key) else { continue }
          missing.append(drawn)
          keys.append(key)
        }
        guard !missing.isEmpty else { continue }
        let overscale = Double(1 << min(max(tile.tile.z - tile.dataTile.z, 0), 30))
        jobs.append(
          Job(
            content: vector, zoom: tile.tile.z, overscale: overscale, layers: missing, keys: keys,
            states: states.states))
      }
    }
    guard !jobs.isEmpty else { return [] }
    let buildStart = DispatchTime.now()
    let limit = limits.geometryBytes
    let bytes = Atomic<Int>(0)
    let cancellation = self.cancellation.cancellation
    let results = ParallelWork.map(jobs) { job in
      Self.buildWhileAllowed(job.layers, cancellation: cancellation, bytes: bytes, limit: limit) { drawn in
        drawn.renderer.buildBucket(
          job.content, layer: drawn.layer,
          context: BucketContext(
            zoom: Double(job.zoom), overscale: job.overscale, patterns: patterns, states: job.states,
            cancellation: cancellation))
      }
    }
    timings.tessellation += milliseconds(buildStart, DispatchTime.now())
    guard bytes.load(ordering: .relaxed) <= limit else {
      throw .geometry(
        style: name, limit: limit, layers: Set(jobs.flatMap { $0.layers.map(\.layer.id) }).count,
        tiles: tiles.values.reduce(0) { $0 + $1.count })
    }
    // A cancelled render keeps what was built (zip drops the keys of buckets left unbuilt).
    return zip(jobs, results).flatMap { job, geometries in zip(job.keys, geometries).map { ($0, $1) } }
  }

  /// The buckets `build` makes of `layers` in turn, with their meshes' chunks, until the render
  /// is cancelled or the geometry of every job together (`bytes`, shared) passes `limit`. A
  /// builder stops between features once the render is cancelled: a bucket finished while it is
  /// cancelled may be partial and is not returned (nor, then, cached).
  static func buildWhileAllowed<Layer>(
    _ layers: [Layer], cancellation: RenderCancellation?, bytes: borrowing Atomic<Int>, limit: Int,
    build: (Layer) -> BucketGeometry
  ) -> [BuiltBucket] {
    var geometries: [BuiltBucket] = []
    for layer in layers {
      guard bytes.load(ordering: .relaxed) <= limit, cancellation?.isCancelled != true else { break }
      let geometry = build(layer)
      guard cancellation?.isCancelled != true else { break }
      bytes.add(geometry.byteCount, ordering: .relaxed)
      geometries.append(BuiltBucket(geometry))
    }
    return geometries
  }

  /// The textures a layer draws with, worked out on its first frame and kept.
  func layerTextures(_ drawn: DrawnLayer) -> [LayerTexture] {
    if let known = layerTextureLists.withLock({ $0[drawn.layer.id] }) { return known }
    let textures = drawn.renderer.layerTextures(drawn.layer, revision: revision)
    layerTextureLists.withLock { $0[drawn.layer.id] = textures }
    return textures
  }

  /// The tile textures the drawn layers upload and the GPU does not hold (`cached`), made
  /// without GL (see ``StyleLayerRenderer/prepareTextures(_:source:cached:)``), once per layer
  /// type and source; stops early when the render is cancelled.
  func prepareTextures(layers: [DrawnLayer], tiles: [String: [RenderTile]], cached: Set<ResourceKey>)
    -> [ResourceKey: PreparedTexture]
  {
    var prepared: [ResourceKey: PreparedTexture] = [:]
    var sets: Set<TextureSet> = []
    for drawn in layers {
      guard !cancellation.isCancelled else { break }
      guard let id = drawn.layer.source, let source = sources[id], let sourceTiles = tiles[id],
        sets.insert(TextureSet(layerType: drawn.layer.type, source: id)).inserted
      else { continue }
      prepared.merge(drawn.renderer.prepareTextures(sourceTiles, source: source, cached: cached)) { first, _ in first }
    }
    return prepared
  }

  /// Uploads the textures the drawn layers' tiles need, once per layer type and source, taking
  /// the texels of `prepared` where they were made ahead.
  func uploadTextures(
    layers: [DrawnLayer], tiles: [String: [RenderTile]], resources: GPUResourceCache,
    prepared: [ResourceKey: PreparedTexture] = [:], timings: inout PreparationTimings
  ) throws(GLError) -> [TextureSet: [TileID: ResourceKey]] {
    var uploader = TileTextureUploader(resources: resources, prepared: prepared)
    var textures: [TextureSet: [TileID: ResourceKey]] = [:]
    if !patterns.isEmpty {
      try uploader.upload(
        ResourceKey(PatternAtlasKey(revision: revision)), width: patterns.width, height: patterns.height
      ) {
        patterns.pixels
      }
    }
    for drawn in layers {
      for texture in layerTextures(drawn) {
        try uploader.upload(texture.key, width: texture.width, height: texture.height, wrap: texture.wrap) {
          texture.texels()
        }
      }
      guard let id = drawn.layer.source, let source = sources[id], let sourceTiles = tiles[id] else { continue }
      let set = TextureSet(layerType: drawn.layer.type, source: id)
      guard textures[set] == nil else { continue }
      textures[set] = try drawn.renderer.uploadTextures(sourceTiles, source: source, uploader: &uploader)
    }
    timings.tessellation += uploader.preparationMilliseconds
    return textures
  }
}
