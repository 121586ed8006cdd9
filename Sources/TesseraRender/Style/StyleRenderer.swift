import Dispatch
import Foundation
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle
import TesseraText

/// Draws a style: for each frame it loads the tiles the camera needs (on the loader's worker
/// threads), has each layer's renderer (see ``StyleLayerRenderers``) build the geometry of
/// tiles not yet on the GPU (in parallel), uploads it and the tiles' textures into a
/// ``GPUResourceCache``, and plans the draws, one layer slot per style layer.
///
/// Geometry and textures stay cached across frames and cameras until evicted; a new style gets
/// a new revision, so buckets built for an earlier style are never reused.
package final class StyleRenderer: Sendable {
  package let style: Style
  /// What the style is called in messages (its file, or the map type it draws).
  package let name: String
  /// The style's sources bound to data, by id (sources that failed to open are absent).
  package let sources: [String: RenderSource]
  package let loader: TileLoader
  /// The tile cache's generation when the sources were opened (see
  /// ``TileCache/generation``): tiles this renderer loads are cached only while it is current,
  /// and never join loads of a later one, since its sources may read files replaced since.
  package let tileGeneration: Int
  /// Seconds to wait for a frame's tiles.
  package let loadTimeout: Double
  /// How much geometry and how many draws one frame may hold.
  package let limits: FrameLimits
  /// The cancellation of the render this renderer works for: bucket building stops once it is
  /// cancelled (what was not built is built by a later frame).
  package let cancellation = CancellationSlot()
  /// The style's warnings and the renderer's: layers of types Tessera does not draw, source
  /// metadata out of range.
  package let warnings: [String]
  let revision: Int
  /// The style's sprite images packed for pattern paint.
  package let patterns: PatternAtlas
  /// The name of the bucket each layer that builds buckets draws, by layer id: the id of the
  /// first layer with the same geometry (see ``StyleLayerRenderer/bucketSignature(_:)``).
  let bucketNames: [String: String]
  /// The programs the style draws with paint as flat varyings.
  let paintVaryings: PaintVaryings

  /// The map's glyphs (PBFs or local fonts) and their atlas, shared by all symbol layers.
  package let glyphs: GlyphStore
  /// The style's images packed for icons (clear borders, unlike ``patterns``).
  let icons: PatternAtlas
  /// The style's images (for icons: SDF flags, stretch zones).
  let images: [String: SpriteImage]
  /// The textures of each layer (dash patterns, ramps) by layer id, worked out once.
  let layerTextureLists = Mutex<[String: [LayerTexture]]>([:])
  /// Symbol buckets built so far (CPU only; symbols are placed anew each frame).
  let symbolBucketCache = Mutex(SymbolBucketCache())
  /// The last frame's symbol placement and what it was made from.
  let lastPlacement = Mutex<(key: PlacementKey, symbols: [String: PlacedSymbols])?>(nil)
  /// What layer renderers keep between frames at one zoom.
  let planMemo = PlanMemo()

  private static let revisions = Atomic<Int>(0)
  /// The features' states and their version (bumped by every change).
  private let featureStateStore: Mutex<StateSnapshot>

  /// The features' states as one frame reads them.
  struct StateSnapshot: Sendable {
    let states: FeatureStates
    let version: Int
  }

  /// The states `feature-state` paint reads.
  package var featureStates: FeatureStates { featureStateStore.withLock { $0.states } }

  /// Merges `values` into the state of the feature `key` names; its layers' geometry is
  /// rebuilt in the next frame.
  package func setFeatureState(_ values: [String: StyleValue], for key: FeatureStates.Key) {
    featureStateStore.withLock { snapshot in
      var states = snapshot.states
      states.set(values, for: key)
      snapshot = StateSnapshot(states: states, version: snapshot.version + 1)
    }
  }

  /// Removes the value `name` (all values when nil) of the feature `key` names.
  package func removeFeatureState(_ name: String? = nil, for key: FeatureStates.Key) {
    featureStateStore.withLock { snapshot in
      var states = snapshot.states
      states.remove(name, for: key)
      snapshot = StateSnapshot(states: states, version: snapshot.version + 1)
    }
  }

  var stateSnapshot: StateSnapshot { featureStateStore.withLock { $0 } }

  package init(
    style: Style, name: String = "style", sources: [String: RenderSource], loader: TileLoader,
    loadTimeout: Double = 60, limits: FrameLimits = FrameLimits(), sourceProblems: [String] = [],
    images: [String: SpriteImage] = [:], glyphs: GlyphStore? = nil, tileGeneration: Int? = nil
  ) {
    patterns = PatternAtlas(images: images)
    let drawsSymbols = style.layers.contains { $0.type == .symbol }
    icons = drawsSymbols ? PatternAtlas(images: images, wrapsBorders: false) : .empty
    self.images = drawsSymbols ? images : [:]
    self.glyphs = glyphs ?? GlyphStore(loader: nil, fonts: drawsSymbols ? FontLibrary.system : nil)
    var states = FeatureStates()
    for (id, source) in style.sources where !source.promotedIDs.isEmpty { states.promotedIDs[id] = source.promotedIDs }
    featureStateStore = Mutex(StateSnapshot(states: states, version: 0))
    self.style = style
    self.name = name
    self.loadTimeout = loadTimeout
    self.limits = limits
    self.sources = sources
    self.loader = loader
    self.tileGeneration = tileGeneration ?? loader.cache.generation
    revision = StyleRenderer.revisions.add(1, ordering: .relaxed).newValue
    bucketNames = StyleRenderer.bucketNames(style.layers)
    paintVaryings = PaintVaryings(layers: style.layers)
    var skipped: [LayerType: Int] = [:]
    for layer in style.layers where StyleLayerRenderers.renderer(for: layer.type) == nil {
      skipped[layer.type, default: 0] += 1
    }
    warnings =
      style.warnings + sourceProblems + patterns.problems
      + skipped.sorted { $0.key.rawValue < $1.key.rawValue }.map { type, count in
        "\(count) \(type.rawValue) layer(s) skipped: Tessera does not draw \(type.rawValue) layers yet"
      }
      + sources.sorted { $0.key < $1.key }.flatMap { id, source in
        source.bound.source.metadata.problems.map { "source '\(id)': \($0)" }
      }
  }

  /// The bucket name of every layer that builds buckets: layers of equal geometry share the
  /// first one's.
  static func bucketNames(_ layers: [StyleLayer]) -> [String: String] {
    var names: [String: String] = [:]
    var firstBySignature: [String: String] = [:]
    for layer in layers {
      guard let renderer = StyleLayerRenderers.renderer(for: layer.type), renderer.buildsBuckets else { continue }
      let signature = renderer.bucketSignature(layer)
      names[layer.id] = firstBySignature[signature] ?? layer.id
      if firstBySignature[signature] == nil { firstBySignature[signature] = layer.id }
    }
    return names
  }

  /// The name of the bucket `layer` draws.
  func bucketName(_ layer: StyleLayer) -> String { bucketNames[layer.id] ?? layer.id }

  /// A style layer the frame draws, with its position in the style and its renderer.
  struct DrawnLayer: Sendable {
    let index: Int
    let layer: StyleLayer
    let renderer: any StyleLayerRenderer
  }

  /// The layers a frame at style zoom `zoom` draws, in order, and the colour the frame is
  /// cleared to instead of drawing the first of them when it covers everything opaquely (its
  /// draw is then left out; not for a background covering the world only in a view that
  /// `showsPastPoles`).
  func drawnLayers(zoom: Double, showsPastPoles: Bool = false) -> (layers: [DrawnLayer], clearColor: Color?) {
    var layers: [DrawnLayer] = []
    for (index, layer) in style.layers.enumerated() where layer.isVisible(atZoom: zoom) {
      guard let renderer = StyleLayerRenderers.renderer(for: layer.type) else { continue }
      layers.append(DrawnLayer(index: index, layer: layer, renderer: renderer))
    }
    if let first = layers.first, let color = first.renderer.opaqueColor(first.layer, zoom: zoom),
      !(showsPastPoles && BackgroundWithinWorld.applies(to: first.layer))
    {
      return (Array(layers.dropFirst()), color)
    }
    return (layers, nil)
  }

  /// The CPU half of a frame, made without any GL call (so on any thread, for instance while
  /// the GL thread compiles shaders): the camera's tiles loaded and every bucket they need
  /// tessellated.
  package struct PreparedTiles: Sendable {
    let transform: CameraTransform
    let tiles: [String: [RenderTile]]
    let warnings: [String]
    let geometries: [BucketKey: BuiltBucket]
    /// The tiles' textures, made ahead (``StyleLayerRenderer/prepareTextures(_:source:)``).
    let textures: [ResourceKey: PreparedTexture]
    let timings: PreparationTimings
    /// Why the buckets could not all be built, if they could not.
    let failure: FrameLimitError?
  }

  /// Loads the tiles `transform` needs, tessellates all their buckets and makes their textures
  /// but those under `cachedTextures` (on the GPU already); no GL.
  package func prepareTiles(transform: CameraTransform, cachedTextures: Set<ResourceKey> = []) -> PreparedTiles {
    let layers = drawnLayers(zoom: transform.camera.styleZoom).layers
    var timings = PreparationTimings()
    let (tiles, warnings) = loadTiles(transform: transform, layers: layers.map(\.layer), timings: &timings)
    var built: [(BucketKey, BuiltBucket)] = []
    var failure: FrameLimitError?
    do {
      built = try buildBuckets(
        layers: layers, tiles: tiles, states: stateSnapshot, isCached: { _ in false }, timings: &timings)
    } catch {
      failure = error
    }
    let texturesStart = DispatchTime.now()
    // A frame whose buckets failed throws before it uploads anything.
    let textures = failure == nil ? prepareTextures(layers: layers, tiles: tiles, cached: cachedTextures) : [:]
    timings.tessellation += milliseconds(texturesStart, DispatchTime.now())
    // Labels too: shaping their tiles is CPU work the GL thread need not wait for.
    let shapingStart = DispatchTime.now()
    _ = symbolBuckets(layers: layers, tiles: tiles, states: stateSnapshot, transform: transform)
    timings.textShaping += milliseconds(shapingStart, DispatchTime.now())
    return PreparedTiles(
      transform: transform, tiles: tiles, warnings: warnings, geometries: Dictionary(uniqueKeysWithValues: built),
      textures: textures, timings: timings, failure: failure)
  }

  /// Loads, builds and uploads what the frame's camera needs and adds the style's draws, one
  /// layer slot per style layer. `prepared` (made by ``prepareTiles(transform:)`` for the same
  /// camera) supplies the tiles and buckets instead of loading and building them. Throws
  /// ``FrameLimitError`` when the frame outgrows ``limits``, and GL errors.
  ///
  /// With `showsCollisionCircles`, labels along lines show the circles they collide with
  /// (MapLibre's collision debug: blue placed, red not).
  package func addDraws(
    to frame: inout FrameBuilder, prepared: PreparedTiles? = nil, tileCuts: TileCuts? = nil,
    showsCollisionCircles: Bool = false
  ) throws {
    let transform = frame.transform
    let (layers, clearColor) = drawnLayers(
      zoom: transform.camera.styleZoom, showsPastPoles: BackgroundWithinWorld.showsPastPoles(transform))
    let usable = prepared.flatMap { $0.transform == transform ? $0 : nil }
    var timings = usable?.timings ?? PreparationTimings()
    let gpuStart: DispatchTime
    let tilesBySource: [String: [RenderTile]]
    let warnings: [String]
    if let usable {
      if let failure = usable.failure { throw failure }
      (tilesBySource, warnings) = (usable.tiles, usable.warnings)
      gpuStart = DispatchTime.now()
    } else {
      let loadStart = DispatchTime.now()
      (tilesBySource, warnings) = loadTiles(transform: transform, layers: layers.map(\.layer), timings: &timings)
      gpuStart = DispatchTime.now()
      timings.tileWait = milliseconds(loadStart, gpuStart)
    }
    let tessellatedBefore = timings.tessellation
    let states = stateSnapshot
    let built = try uploadBuckets(
      layers: layers, tiles: tilesBySource, resources: frame.resources, prebuilt: usable?.geometries ?? [:],
      states: states, timings: &timings)
    let textures = try uploadTextures(
      layers: layers, tiles: tilesBySource, resources: frame.resources, prepared: usable?.textures ?? [:],
      timings: &timings)
    let planStart = DispatchTime.now()
    timings.upload = milliseconds(gpuStart, planStart) - (timings.tessellation - tessellatedBefore)
    if let clearColor, frame.isEmpty { frame.clearColor = clearColor }
    var input = StyleFrameInput(
      transform: transform, tiles: tilesBySource, textures: textures, revision: revision,
      bucketNames: bucketNames, light: style.light, patterns: patterns, stateVersion: states.version,
      clipsByPlanes: frame.resources.clipsTilesByPlanes, tileCuts: tileCuts, paintVaryings: paintVaryings,
      memo: planMemo)
    try prepareSymbols(
      layers: layers, tiles: tilesBySource, states: states, resources: frame.resources, tileCuts: tileCuts,
      showsCollisionCircles: showsCollisionCircles, input: &input, timings: &timings)
    var planner = StyleFramePlanner(input: input, frame: frame)
    for (position, drawn) in layers.enumerated() {
      planner.frame.beginLayer()
      let tiles = drawn.layer.source.flatMap { tilesBySource[$0] } ?? []
      drawn.renderer.plan(drawn.layer, tiles: tiles, planner: &planner)
      guard planner.frame.commands.count <= limits.draws else {
        throw FrameLimitError.draws(
          style: name, limit: limits.draws, layer: drawn.layer.id, index: position, layerCount: layers.count)
      }
    }
    frame = planner.frame
    timings.commandPlanning = milliseconds(planStart, DispatchTime.now())
    frame.warnings += warnings + glyphs.takeNewWarnings()
    frame.statistics.tiles += tilesBySource.values.reduce(0) { $0 + $1.count }
    frame.statistics.bucketsBuilt += built
    frame.statistics.timings = timings
  }

  /// The pipelines the first frame at `transform` is expected to draw with, each once, in
  /// drawing order: what each drawn layer's renderer says it draws with, with tiles clipped by
  /// stencil masks in rotated or tilted views, else by scissor rectangles.
  package func expectedPipelines(transform: CameraTransform, clipsByPlanes byPlanes: Bool) -> [Pipeline] {
    let camera = transform.camera
    let turned = camera.bearing != 0 || camera.viewingAngle != 0
    let context = PipelineContext(
      zoom: camera.styleZoom, clipsWithStencil: !byPlanes && turned, clipsByPlanes: byPlanes && turned,
      isTilted: camera.viewingAngle != 0, isFlatAtWholeZoom: !turned && camera.zoom == camera.zoom.rounded(),
      imageSources: Set(sources.filter { $0.value.kind == .image }.keys),
      showsPastPoles: BackgroundWithinWorld.showsPastPoles(transform))
    var seen = Set<Pipeline>()
    return drawnLayers(zoom: context.zoom, showsPastPoles: context.showsPastPoles).layers.flatMap { drawn in
      drawn.renderer.pipelines(drawn.layer, context).map { Pipeline(paintVaryings.apply($0)) }
        + drawn.renderer.otherPipelines(drawn.layer, context)
    }.filter { seen.insert($0).inserted }
  }

  /// The style as one layer of a frame; its first frame may draw from `prepared` tiles. A frame
  /// to be cut into tiles along `tileCuts` draws as ``TileCuts`` says.
  package func frameLayer(
    prepared: PreparedTiles? = nil, tileCuts: TileCuts? = nil, showsCollisionCircles: Bool = false
  )
    -> StyleFrameLayer
  {
    StyleFrameLayer(
      renderer: self, prepared: prepared, tileCuts: tileCuts, showsCollisionCircles: showsCollisionCircles)
  }
}

/// A style's layers as one ``FrameLayer``.
package struct StyleFrameLayer: FrameLayer {
  package let renderer: StyleRenderer
  /// Tiles loaded and tessellated ahead for the frame's camera, if any.
  package let prepared: StyleRenderer.PreparedTiles?
  /// Screen lines no label may cross (frames cut into tiles).
  package var tileCuts: TileCuts? = nil
  /// Whether labels along lines show their collision circles.
  package var showsCollisionCircles = false

  package func addDraws(to frame: inout FrameBuilder) throws {
    try renderer.addDraws(
      to: &frame, prepared: prepared, tileCuts: tileCuts, showsCollisionCircles: showsCollisionCircles)
  }

  package func expectedPipelines(transform: CameraTransform, clipsByPlanes: Bool) -> [Pipeline] {
    renderer.expectedPipelines(transform: transform, clipsByPlanes: clipsByPlanes)
  }
}
