import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers
import TesseraStyle

/// How Tessera draws one style layer type, and the only place that knows the type: its
/// geometry from vector tiles, its textures, the pipelines it draws with and its draws.
/// A layer type is added by conforming once and listing the conformance in
/// ``StyleLayerRenderers/all`` (see docs/ARCHITECTURE.md, "How to add a layer type").
protocol StyleLayerRenderer: Sendable {
  /// The layer type drawn.
  var layerType: LayerType { get }

  /// Whether layers of the type draw geometry built from vector tiles (buckets).
  var buildsBuckets: Bool { get }

  /// Paint properties ``buildBucket(_:layer:context:)`` reads even when they are not
  /// data-driven (data-driven ones are always part of the geometry).
  var geometryPaintProperties: Set<String> { get }

  /// The geometry of `layer` in `tile` for `context` (zoom, overscale, pattern atlas, feature
  /// states), in bucket coordinates (``BucketGeometry/extent`` per tile side). Called on
  /// worker threads.
  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry

  /// Uploads the textures the type draws the tiles of one source with (once per source and
  /// type in a frame; what is cached already is reused) and returns each data tile's texture.
  func uploadTextures(_ tiles: [RenderTile], source: RenderSource, uploader: inout TileTextureUploader)
    throws(GLError) -> [TileID: ResourceKey]

  /// The CPU half of ``uploadTextures(_:source:uploader:)``: each tile's texels under the key
  /// that function uploads them with (textures under `cached` keys, on the GPU already, are
  /// left out), made without GL on a worker thread (a first frame's, while the rendering
  /// thread makes pipelines). That function then takes them from
  /// ``TileTextureUploader/prepared``.
  func prepareTextures(_ tiles: [RenderTile], source: RenderSource, cached: Set<ResourceKey>)
    -> [ResourceKey: PreparedTexture]

  /// The textures `layer` itself draws with (not its tiles'): a heatmap's colour ramp, a
  /// line's dash patterns. Asked once per style `revision`; each frame uploads those missing.
  func layerTextures(_ layer: StyleLayer, revision: Int) -> [LayerTexture]

  /// The pipelines a frame draws `layer` with, each once, in drawing order. The first frame
  /// makes them before its tiles are ready; ``plan(_:tiles:planner:)`` draws with pipelines
  /// from the same function.
  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline]

  /// Pipelines of other kinds than style programs the layer draws with (symbol quads), for
  /// the same first-frame prediction.
  func otherPipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [Pipeline]

  /// Adds the draws of `layer` over `tiles` (its source's tiles in the frame).
  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner)

  /// The colour `layer` paints every pixel with, opaquely, at style zoom `zoom`, if it does: a
  /// frame starting with it is cleared to the colour instead (no full-screen blend).
  func opaqueColor(_ layer: StyleLayer, zoom: Double) -> Color?
}

extension StyleLayerRenderer {
  var buildsBuckets: Bool { false }

  var geometryPaintProperties: Set<String> { [] }

  /// What the geometry of `layer` is made from: its type, source, source layer, filter,
  /// layout and the paint properties it builds into vertices. Layers with equal signatures
  /// build the same buckets, so one bucket per tile serves them all (a style repeating a
  /// source layer in many layers that differ only in constant paint, zoom range or id keeps
  /// one copy of the geometry).
  func bucketSignature(_ layer: StyleLayer) -> String {
    var signature = JSONObject()
    signature["type"] = .string(layer.type.rawValue)
    signature["source"] = layer.source.map { .string($0) } ?? .null
    signature["source-layer"] = layer.sourceLayer.map { .string($0) } ?? .null
    signature["filter"] = layer.definition["filter"] ?? .null
    var layout = layer.definition["layout"]?.object ?? JSONObject()
    layout["visibility"] = nil
    signature["layout"] = .object(layout)
    var paint = JSONObject()
    for (key, value) in layer.definition["paint"]?.object?.pairs ?? []
    where layer.properties[key]?.isDataDriven == true || geometryPaintProperties.contains(key) {
      paint[key] = value
    }
    signature["paint"] = .object(paint)
    return JSONValue.object(signature).serialized(sortingKeys: true)
  }

  func opaqueColor(_ layer: StyleLayer, zoom: Double) -> Color? { nil }

  func otherPipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [Pipeline] { [] }

  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry {
    BucketGeometry(main: MeshGeometry(floatsPerVertex: 2), outline: nil, mask: [])
  }

  func uploadTextures(_ tiles: [RenderTile], source: RenderSource, uploader: inout TileTextureUploader)
    throws(GLError) -> [TileID: ResourceKey]
  { [:] }

  func prepareTextures(_ tiles: [RenderTile], source: RenderSource, cached: Set<ResourceKey>)
    -> [ResourceKey: PreparedTexture]
  { [:] }

  func layerTextures(_ layer: StyleLayer, revision: Int) -> [LayerTexture] { [] }
}

/// What building a bucket depends on besides the tile and the layer.
struct BucketContext: Sendable {
  /// The style zoom filters and paint are evaluated at: the drawn tiles' zoom.
  let zoom: Double
  /// 2^(zoom − the data tile's zoom): how many times deeper than the data the tiles are.
  let overscale: Double
  /// Where data-driven patterns' images lie.
  let patterns: PatternAtlas
  /// The features' states (for `feature-state` paint).
  let states: FeatureStates
  /// The render's cancellation: builders stop between features once it is cancelled, and
  /// what they return then is partial and dropped (nil: not cancellable).
  var cancellation: RenderCancellation? = nil
}

/// What the pipelines of a layer depend on besides the layer.
struct PipelineContext {
  /// The style zoom.
  let zoom: Double
  /// Whether tiles are clipped with stencil masks (rotated or tilted views on devices without
  /// clip planes) rather than scissor rectangles.
  let clipsWithStencil: Bool
  /// Whether tile programs clip their geometry with clip planes (rotated or tilted views on
  /// devices with `GL_EXT_clip_cull_distance`); their pipelines then never use the stencil
  /// buffer. Flat views clip with scissors and leave the planes off (each costs vertex work).
  var clipsByPlanes = false
  /// Whether the view is tilted.
  var isTilted = false
  /// Whether the view is neither rotated nor tilted and at a whole zoom: image tiles then
  /// usually lie one texel a pixel (see ``ImageTexels``).
  var isFlatAtWholeZoom = false
  /// The style's `image` sources (drawn as quads rather than tiles).
  var imageSources: Set<String> = []
  /// Whether the view shows rows past the poles (a low zoom): backgrounds covering the world
  /// only (``BackgroundWithinWorld``) are then drawn over the world's copies.
  var showsPastPoles = false

  /// The clip-mask pipeline when masks are drawn.
  var clipPipelines: [StylePipeline] { clipsWithStencil ? [.clip] : [] }
}

/// A texture a layer draws with: its key, size in texels, wrapping and how to make its RGBA
/// texels (rows top first) when it is not on the GPU.
struct LayerTexture: Sendable {
  let key: ResourceKey
  let width: Int
  let height: Int
  var wrap: TextureWrap = .clampToEdge
  let texels: @Sendable () -> [UInt8]
}

/// A tile texture's texels made ahead of its upload (``StyleLayerRenderer/prepareTextures(_:source:)``):
/// RGBA rows top first, `width` × `height` texels, with the cells holding anything when the
/// renderer tracks them.
struct PreparedTexture: Sendable {
  let width: Int
  let height: Int
  let pixels: [UInt8]
  var occupancy: TextureOccupancy?
}

/// Uploads tile textures for a frame: into the GPU cache, timing the CPU preparation.
struct TileTextureUploader {
  let resources: GPUResourceCache
  /// Texels made ahead on a worker thread, by key (a first frame's; empty later).
  var prepared: [ResourceKey: PreparedTexture] = [:]
  /// Time spent preparing textures on the CPU, milliseconds (counted as tessellation).
  var preparationMilliseconds = 0.0

  /// Uploads `pixels` (RGBA, rows top first) under `key` unless a texture is there already.
  func upload(
    _ key: ResourceKey, width: Int, height: Int, wrap: TextureWrap = .clampToEdge, pixels: () -> [UInt8]
  ) throws(GLError) {
    guard resources.texture(key) == nil else { return }
    try resources.insertTexture(key, width: width, height: height, pixels: pixels(), wrap: wrap)
  }
}
