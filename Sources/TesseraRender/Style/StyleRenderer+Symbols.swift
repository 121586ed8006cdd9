import Dispatch
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle
import TesseraText

/// What a frame's placement depends on: the camera and the buckets placed.
struct PlacementKey: Equatable, Sendable {
  let transform: CameraTransform
  /// The symbol layers placed and each one's buckets.
  let layers: [String]
  let buckets: [[BucketKey]]
  let tileCuts: TileCuts?
  let showsCollisionCircles: Bool
}

/// Symbol buckets kept between frames, least recently used dropped beyond a bound.
struct SymbolBucketCache: Sendable {
  /// The most buckets kept.
  static let capacity = 1024
  private var entries: [BucketKey: (bucket: SymbolBucket, lastUse: Int)] = [:]
  private var clock = 0

  mutating func bucket(_ key: BucketKey) -> SymbolBucket? {
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key]!.lastUse = clock
    return entry.bucket
  }

  mutating func insert(_ bucket: SymbolBucket, for key: BucketKey) {
    clock += 1
    entries[key] = (bucket, clock)
    guard entries.count > SymbolBucketCache.capacity else { return }
    let oldest = entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(
      entries.count - SymbolBucketCache.capacity)
    for (key, _) in oldest { entries[key] = nil }
  }

  var count: Int { entries.count }
}

extension StyleRenderer {
  /// Symbol tiles in MapLibre's order: deeper tiles first, then from the bottom of the view
  /// up and right to left (by tile position turned with the bearing), so placement and
  /// drawing do not depend on the order tiles were loaded in.
  static func symbolOrder(_ groups: [BucketGroup], transform: CameraTransform) -> [BucketGroup] {
    func key(_ group: BucketGroup) -> (Int, Double, Double) {
      let tile = group.key.dataTile
      let x = Double(tile.x + group.key.wrap * tile.tilesPerSide)
      let y = Double(tile.y)
      // MapLibre turns the tile position by the bearing (its angle is the negated bearing).
      let (c, s) = (transform.cosBearing, -transform.sinBearing)
      return (tile.z, c * y + s * x, c * x - s * y)
    }
    return groups.sorted { a, b in
      let (ka, kb) = (key(a), key(b))
      return ka.0 != kb.0 ? ka.0 > kb.0 : ka.1 != kb.1 ? ka.1 < kb.1 : ka.2 < kb.2
    }
  }

  /// Whether the data tile of `tile` holds the camera's target (half-open, so one tile does).
  static func holdsCentre(_ tile: BucketTile, transform: CameraTransform) -> Bool {
    let size = transform.worldSize / Double(tile.dataTile.tilesPerSide)
    let origin = tile.covered.origin(worldSize: transform.worldSize)
    let target = transform.targetWorld
    return target.x >= origin.x && target.x < origin.x + size && target.y >= origin.y && target.y < origin.y + size
  }

  /// The symbol buckets of the frame's symbol layers, each layer's tiles in placement order;
  /// those not cached are built (in parallel) and cached. With `tilePlacement` (MapLibre's
  /// tile mode, the frame being one tile), only the tile under the frame's centre places
  /// symbols, and its buckets keep the symbols anchored in its buffer.
  func symbolBuckets(
    layers: [DrawnLayer], tiles: [String: [RenderTile]], states: StateSnapshot, transform: CameraTransform,
    tilePlacement: Bool = false
  ) -> [SymbolLayerTiles] {
    struct Job: Sendable {
      let key: BucketKey
      let content: VectorTile
      let layer: StyleLayer
      let zoom: Int
    }
    var jobs: [Job] = []
    var layerTiles: [(StyleLayer, [(BucketTile, BucketKey)])] = []
    var known: [BucketKey: SymbolBucket] = [:]
    for drawn in layers where drawn.layer.type == .symbol {
      let layer = drawn.layer
      guard let source = layer.source, let sourceTiles = tiles[source] else { continue }
      var entries: [(BucketTile, BucketKey)] = []
      for group in StyleRenderer.symbolOrder(StyleFramePlanner.groups(sourceTiles), transform: transform) {
        guard let first = group.tiles.first, case .vector(var vector) = first.content else { continue }
        if tilePlacement && !StyleRenderer.holdsCentre(group.key, transform: transform) { continue }
        let key = BucketKey(
          source: source, tile: group.key.dataTile, zoom: group.key.zoom, layer: layer.id, revision: revision,
          stateVersion: layer.readsFeatureState ? states.version : 0, keepsBufferSymbols: tilePlacement)
        entries.append((group.key, key))
        if known[key] != nil { continue }
        if let cached = symbolBucketCache.withLock({ $0.bucket(key) }) {
          known[key] = cached
          continue
        }
        vector.tile = first.dataTile
        jobs.append(Job(key: key, content: vector, layer: layer, zoom: group.key.zoom))
        known[key] = SymbolBucket(instances: [])
      }
      layerTiles.append((layer, entries))
    }
    let context = SymbolContext(glyphs: glyphs, icons: icons, images: images)
    let stateValues = states.states
    let built = ParallelWork.map(jobs) { job in
      SymbolBucketBuilder.build(
        job.content, layer: job.layer, zoom: Double(job.zoom),
        overscale: Double(1 << min(max(job.zoom - (job.content.tile?.z ?? job.zoom), 0), 30)), context: context,
        states: stateValues, keepsBufferSymbols: job.key.keepsBufferSymbols)
    }
    // Glyphs are packed here, one bucket after another in the jobs' fixed order, not as the
    // parallel builders happen to finish: the atlas is then the same every run.
    for (job, unpacked) in zip(jobs, built) {
      let bucket = unpacked.packingGlyphs(in: glyphs)
      known[job.key] = bucket
      symbolBucketCache.withLock { $0.insert(bucket, for: job.key) }
    }
    return layerTiles.map { layer, entries in
      SymbolLayerTiles(layer: layer, tiles: entries.map { ($0.0, known[$0.1]!) }, keys: entries.map(\.1))
    }
  }

  /// Builds the symbol buckets the frame's symbol layers lack (in parallel), places every
  /// symbol of the frame and uploads the glyph and icon atlases; the placed symbols go into
  /// `input` for the symbol layers' draws.
  func prepareSymbols(
    layers: [DrawnLayer], tiles: [String: [RenderTile]], states: StateSnapshot, resources: GPUResourceCache,
    tileCuts: TileCuts?, showsCollisionCircles: Bool = false, input: inout StyleFrameInput,
    timings: inout PreparationTimings
  ) throws {
    guard layers.contains(where: { $0.layer.type == .symbol }) else { return }
    let shapingStart = DispatchTime.now()
    let layerTiles = symbolBuckets(
      layers: layers, tiles: tiles, states: states, transform: input.transform,
      tilePlacement: tileCuts?.tilePlacement == true)
    // A corrupt glyph file fails the frame rather than drawing labels without its glyphs.
    if let failure = glyphs.failure { throw failure }
    let placementStart = DispatchTime.now()
    timings.textShaping += milliseconds(shapingStart, placementStart)

    // The same camera over the same buckets places the same symbols: the last frame's
    // placement is reused (placement is deterministic).
    let key = PlacementKey(
      transform: input.transform, layers: layerTiles.map(\.layer.id), buckets: layerTiles.map(\.keys),
      tileCuts: tileCuts, showsCollisionCircles: showsCollisionCircles)
    if let last = lastPlacement.withLock({ $0 }), last.key == key {
      input.symbols = last.symbols
    } else {
      var placement = SymbolPlacer(
        transform: input.transform,
        collisionMargin: tileCuts?.collisionMargin
          ?? CollisionGrid.margin(tilted: input.transform.camera.viewingAngle != 0))
      placement.tileCuts = tileCuts
      placement.showsCollisionCircles = showsCollisionCircles
      input.symbols = placement.place(layerTiles)
      let quads = Double(placement.quadNanoseconds) / 1e6
      timings.textCollision += milliseconds(placementStart, DispatchTime.now()) - quads
      timings.textQuads += quads
      lastPlacement.withLock { $0 = (key, input.symbols) }
    }

    let atlas = glyphs.takeAtlasChanges()
    let glyphKey = ResourceKey(GlyphAtlasKey(store: ObjectIdentifier(glyphs)))
    try resources.updatePinnedAtlas(
      glyphKey, width: atlas.width, height: atlas.height, format: .r8, rows: atlas.dirtyRows,
      pixels: { atlas.pixels }, rowBytes: { atlas.bytes(ofRows: $0) })
    input.glyphAtlas = SymbolAtlasTexture(key: glyphKey, width: atlas.width, height: atlas.height)
    if let colors = glyphs.takeColorAtlasChanges() {
      let colorKey = ResourceKey(ColorGlyphAtlasKey(store: ObjectIdentifier(glyphs)))
      try resources.updatePinnedAtlas(
        colorKey, width: colors.width, height: colors.height, format: .rgba8, rows: colors.dirtyRows,
        pixels: { colors.pixels }, rowBytes: { colors.bytes(ofRows: $0) })
      input.colorGlyphAtlas = SymbolAtlasTexture(key: colorKey, width: colors.width, height: colors.height)
    }
    if !icons.isEmpty {
      let iconKey = ResourceKey(IconAtlasKey(revision: revision))
      let uploader = TileTextureUploader(resources: resources)
      try uploader.upload(iconKey, width: icons.width, height: icons.height) { icons.pixels }
      input.iconAtlas = SymbolAtlasTexture(key: iconKey, width: icons.width, height: icons.height)
    }
  }
}
