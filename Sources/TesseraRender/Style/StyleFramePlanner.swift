import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle

/// What a style frame draws with: the camera, each source's tiles and the tiles' textures.
struct StyleFrameInput {
  let transform: CameraTransform
  /// The tiles of each source, by source id.
  let tiles: [String: [RenderTile]]
  /// The texture of each drawn raster or DEM tile, by layer type and source, then data tile.
  let textures: [TextureSet: [TileID: ResourceKey]]
  /// The style revision buckets were built for.
  let revision: Int
  /// The bucket each layer draws, by layer id (layers of equal geometry share one).
  let bucketNames: [String: String]
  /// The light shading extrusions.
  let light: StyleLight
  /// Where the style's pattern images lie in the atlas texture (``PatternAtlasKey``).
  let patterns: PatternAtlas
  /// The version of the feature states the buckets of layers reading them were built with.
  let stateVersion: Int
  /// Whether tile programs clip to their tiles with clip planes in rotated and tilted views
  /// (else with stencil masks).
  var clipsByPlanes = false
  /// The lines the frame will be cut along into tiles, if it will be (see ``TileCuts``).
  var tileCuts: TileCuts?
  /// The programs the style draws with paint as flat varyings (the same choice as the
  /// first frame's warm-up, ``StyleRenderer/expectedPipelines(transform:clipsByPlanes:)``).
  let paintVaryings: PaintVaryings
  /// The symbols each symbol layer draws, placed for this frame, by layer id.
  var symbols: [String: PlacedSymbols] = [:]
  /// The glyph atlas and icon atlas textures symbols draw from.
  var glyphAtlas: SymbolAtlasTexture?
  var iconAtlas: SymbolAtlasTexture?
  /// The glyph store's colour atlas (emoji), once a label has drawn one.
  var colorGlyphAtlas: SymbolAtlasTexture?
  /// What layer renderers keep between frames of the style at one zoom.
  var memo = PlanMemo()

  /// The style's zoom.
  var zoom: Double { transform.camera.styleZoom }
}

/// The textures one layer type draws one source's tiles with.
struct TextureSet: Hashable {
  let layerType: LayerType
  let source: String
}

/// Plans a style's draws, layer after layer (the painter's algorithm), into the frame: the
/// pieces every layer renderer shares (tile matrices, translations, paint uniforms, bucket
/// references, tile clipping). Pure: no GL.
struct StyleFramePlanner {
  let input: StyleFrameInput
  /// The frame the draws go into.
  var frame: FrameBuilder
  /// How tiles are clipped at the moment (masks drawn, or scissor rectangles).
  var clipping = TileClipping()

  /// The uniform every style program positions its geometry with: mesh units to clip space.
  static let matrix = UniformSlot<Mat4>("u_matrix")

  var zoom: Double { input.zoom }
  var transform: CameraTransform { input.transform }
  /// Device pixels per point.
  var pixelRatio: Double { frame.pixelRatio }

  /// Adds a draw in the current layer's slot, in the frame's translucent pass (or `pass`).
  mutating func draw(
    _ pipeline: StylePipeline, _ mesh: MeshReference, _ uniforms: UniformValues, instances: Int = 1,
    textures: [ResourceKey] = [], stencil: Int32? = nil, cull: CullVolume? = nil, scissor: PixelRect? = nil,
    pass: SortKey.Pass = .translucent
  ) {
    frame.draw(
      pass, Pipeline(input.paintVaryings.apply(pipeline)), mesh, uniforms, instances: instances,
      textures: textures, stencil: stencil, cull: cull, scissor: scissor)
  }

  /// Clears the stencil buffer (and forgets the clip masks it held).
  mutating func clearStencil() {
    frame.clearStencil(.translucent)
    clipping.forget()
  }

  /// The bucket of a layer's geometry for a group of tiles.
  func bucket(_ layer: StyleLayer, _ tile: BucketTile, _ part: MeshPart = .main) -> MeshReference {
    .cached(
      ResourceKey(
        BucketKey(
          source: layer.source ?? "", tile: tile.dataTile, zoom: tile.zoom,
          layer: input.bucketNames[layer.id] ?? layer.id, revision: input.revision,
          stateVersion: layer.readsFeatureState ? input.stateVersion : 0)),
      part)
  }

  /// The texture of `tile` for layers of `layer`'s type, if uploaded.
  func texture(_ layer: StyleLayer, _ tile: RenderTile) -> ResourceKey? {
    guard let source = layer.source else { return nil }
    return input.textures[TextureSet(layerType: layer.type, source: source)]?[tile.dataTile]
  }

  /// The matrix of a tile whose geometry spans `extent` units per side, shifted by a
  /// `translate` paint value (points; rotated with the map unless anchored to the viewport).
  /// `pixelAligned` snaps the world to whole points at the view's centre, as MapLibre does for
  /// images so that unrotated rasters are not resampled between pixels.
  func tileMatrix(
    _ covered: CoveredTile, extent: Double, translate: (Double, Double) = (0, 0), viewportAnchored: Bool = false,
    pixelAligned: Bool = false
  ) -> Mat4 {
    let transform = input.transform
    let tileWorldSize = transform.worldSize / Double(covered.tile.tilesPerSide)
    var origin = covered.origin(worldSize: transform.worldSize)
    var (tx, ty) = translate
    if pixelAligned {
      let alignment = StyleFramePlanner.pixelAlignment(transform)
      tx += alignment.dx
      ty += alignment.dy
    }
    if viewportAnchored {
      (tx, ty) = StyleFramePlanner.rotatedToMap(tx, ty, transform)
    }
    origin = WorldPoint(x: origin.x + tx, y: origin.y + ty)
    return transform.clipMatrix(origin: origin, unitsToPoints: tileWorldSize / extent)
  }

  /// A screen-space offset (points) turned into world axes by the bearing.
  static func rotatedToMap(_ x: Double, _ y: Double, _ transform: CameraTransform) -> (Double, Double) {
    (transform.cosBearing * x - transform.sinBearing * y, transform.sinBearing * x + transform.cosBearing * y)
  }

  /// The shift (world points) that puts whole world points on whole screen points around the
  /// view's centre (half a point off on odd view sizes, turned with the bearing).
  static func pixelAlignment(_ transform: CameraTransform) -> (dx: Double, dy: Double) {
    let x = transform.targetWorld.x
    let y = transform.targetWorld.y
    let xShift = transform.viewport.width.truncatingRemainder(dividingBy: 2) / 2
    let yShift = transform.viewport.height.truncatingRemainder(dividingBy: 2) / 2
    // MapLibre's angle is the negated bearing.
    let cosine = transform.cosBearing
    let sine = -transform.sinBearing
    let dx = x - x.rounded() + cosine * xShift + sine * yShift
    let dy = y - y.rounded() + cosine * yShift + sine * xShift
    return (dx > 0.5 ? dx - 1 : dx, dy > 0.5 ? dy - 1 : dy)
  }

  /// A layer's `…-translate` offset (points) and whether it is anchored to the viewport.
  func translation(
    _ layer: StyleLayer, _ translate: StyleProperty<[Double]>, anchor: StyleProperty<ReferenceFrame>
  ) -> (offset: (Double, Double), viewport: Bool) {
    let numbers = layer.value(translate, zoom: zoom)
    let viewport = layer.value(anchor, zoom: zoom) == .viewport
    return ((numbers.first ?? 0, numbers.count > 1 ? numbers[1] : 0), viewport)
  }

  /// The uniforms of `bindings` for `layer` drawn from a bucket built at `tile`'s zoom.
  func paintUniforms(_ bindings: [PaintBinding], layer: StyleLayer, mask: PaintMask, tile: BucketTile)
    -> UniformValues
  {
    PaintBinding.uniforms(bindings, layer: layer, mask: mask, zoom: zoom, tileZoom: tile.zoom)
  }

  /// The value of type `Value` that `make` works out for `layer` at this frame's zoom, kept
  /// between frames (see ``PlanMemo``); `variant` tells apart values of one type.
  func memo<Value: Sendable>(_ layer: StyleLayer, variant: Int = 0, _ make: () -> Value) -> Value {
    input.memo.value(layer: layer.id, variant: variant, zoom: zoom, make)
  }

  /// Tiles grouped by the bucket they draw, in order of first appearance.
  static func groups(_ tiles: [RenderTile]) -> [BucketGroup] {
    var order: [BucketTile] = []
    var members: [BucketTile: [RenderTile]] = [:]
    for tile in tiles {
      let key = BucketTile(dataTile: tile.dataTile, zoom: tile.tile.z, wrap: tile.wrap)
      if members[key] == nil { order.append(key) }
      members[key, default: []].append(tile)
    }
    return order.map { BucketGroup(key: $0, tiles: members[$0]!) }
  }
}

/// The geometry a vector tile draws: its data tile's bucket evaluated at the tile's zoom, in
/// one world copy. Overzoomed tiles of one ancestor share it (so lines and dashes run on
/// unbroken across them) and are drawn with one draw clipped to their joint area.
struct BucketTile: Hashable {
  let dataTile: TileID
  /// The zoom of the tiles drawn (deeper than the data tile's when overzoomed).
  let zoom: Int
  let wrap: Int

  /// The data tile in its world copy.
  var covered: CoveredTile { CoveredTile(tile: dataTile, wrap: wrap) }
}

/// The tiles drawing one bucket.
struct BucketGroup {
  let key: BucketTile
  let tiles: [RenderTile]
}
