import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraStyle

/// What a style frame draws with: the camera, the visible layers and each source's tiles.
struct StyleFrameInput {
  let transform: CameraTransform
  /// Device pixels per point.
  let pixelRatio: Double
  /// The visible layers with their positions in the style.
  let layers: [(index: Int, layer: StyleLayer)]
  /// The tiles of each source, by source id.
  let tiles: [String: [RenderTile]]
  /// The texture of each drawn raster or DEM tile, by source id and data tile.
  let textures: [String: [TileID: TextureKey]]
  /// The style revision buckets were built for.
  let revision: Int
  /// The light shading extrusions.
  var light = StyleLight()

  /// The style's zoom (MapLibre units: the camera's zoom − 1).
  var zoom: Double { transform.camera.zoom - 1 }
}

/// Turns a ``StyleFrameInput`` into draw commands: pure, no GL. Layers are drawn in style order
/// (painter's algorithm); tiles of vector layers are clipped to their area with stencil masks
/// (one reference per tile, redrawn when the source changes), so geometry in a tile's buffer
/// never blends twice.
struct StyleFramePlanner {
  let input: StyleFrameInput
  /// Added to layer indices in sort keys.
  let layerOffset: Int
  private(set) var commands: [DrawCommand] = []
  private var order = 0
  private var stencilSource: String?
  private var stencilReferences: [BucketTile: Int32] = [:]
  /// The source whose tiles are clipped with scissor rectangles instead, and the rectangles.
  private var scissorSource: String?
  private var scissorRects: [BucketTile: PixelRect] = [:]

  /// The commands of every layer of `input`, and the colour the frame can be cleared to
  /// instead of drawing the first layer: an opaque background layer covers everything under
  /// it, so clearing to its colour gives the same pixels without a full-screen blend.
  static func plan(_ input: StyleFrameInput, layerOffset: Int = 0) -> (commands: [DrawCommand], clearColor: Color?) {
    var planner = StyleFramePlanner(input: input, layerOffset: layerOffset)
    var clearColor: Color?
    for (position, (index, layer)) in input.layers.enumerated() {
      if position == 0, let color = StyleFramePlanner.opaqueBackground(layer, zoom: input.zoom) {
        clearColor = color
        continue
      }
      planner.planLayer(layer, index: index)
    }
    return (planner.commands, clearColor)
  }

  /// The colour of a background layer that paints every pixel opaquely, if it is one.
  static func opaqueBackground(_ layer: StyleLayer, zoom: Double) -> Color? {
    guard layer.type == .background else { return nil }
    let color = layer.property("background-color").color(zoom: zoom)
    let opacity = layer.property("background-opacity").number(zoom: zoom)
    return color.alpha >= 1 && opacity >= 1 ? color : nil
  }

  private mutating func planLayer(_ layer: StyleLayer, index: Int) {
    let tiles = layer.source.flatMap { input.tiles[$0] } ?? []
    switch layer.type {
    case .background: planBackground(layer, index: index)
    case .fill: planFill(layer, index: index, tiles: tiles)
    case .line: planLine(layer, index: index, tiles: tiles)
    case .circle: planCircle(layer, index: index, tiles: tiles)
    case .raster: planRaster(layer, index: index, tiles: tiles)
    case .hillshade: planHillshade(layer, index: index, tiles: tiles)
    case .fillExtrusion: planFillExtrusion(layer, index: index, tiles: tiles)
    case .symbol, .heatmap: break
    }
  }

  // MARK: Shared pieces

  /// Appends a command in the current layer's slot.
  mutating func append(
    _ index: Int, _ pipeline: PipelineKind, _ mesh: MeshReference, _ uniforms: [(name: String, value: UniformValue)],
    textures: [TextureKey] = [], stencil: Int32? = nil, cullMargin: Double? = nil, scissor: PixelRect? = nil
  ) {
    commands.append(
      DrawCommand(
        key: SortKey(pass: .translucent, layer: layerOffset + index, order: order), pipeline: pipeline, mesh: mesh,
        uniforms: uniforms, textures: textures, stencilReference: stencil, cullMargin: cullMargin,
        scissor: scissor))
    order += 1
  }

  /// The bucket key of a layer's geometry for a group of tiles.
  func bucketKey(_ layer: StyleLayer, _ tile: BucketTile) -> BucketKey {
    BucketKey(
      source: layer.source ?? "", tile: tile.dataTile, zoom: tile.zoom, layer: layer.id, revision: input.revision)
  }

  /// The matrix of a tile whose geometry spans `extent` units per side, shifted by a
  /// `translate` paint value (points; rotated with the map unless anchored to the viewport).
  /// `pixelAligned` snaps the world to whole points at the view's centre, as MapLibre does for
  /// images so that unrotated rasters are not resampled between pixels.
  func tileMatrix(
    _ tile: RenderTile, extent: Double, translate: (Double, Double) = (0, 0), viewportAnchored: Bool = false,
    pixelAligned: Bool = false
  ) -> UniformValue {
    tileMatrix(
      tile.covered, extent: extent, translate: translate, viewportAnchored: viewportAnchored,
      pixelAligned: pixelAligned)
  }

  /// ``tileMatrix(_:extent:translate:viewportAnchored:pixelAligned:)`` for a tile in a world copy.
  func tileMatrix(
    _ covered: CoveredTile, extent: Double, translate: (Double, Double) = (0, 0), viewportAnchored: Bool = false,
    pixelAligned: Bool = false
  ) -> UniformValue {
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
      // A screen-space offset: rotate it into world axes by the bearing.
      (tx, ty) = (
        transform.cosBearing * tx - transform.sinBearing * ty, transform.sinBearing * tx + transform.cosBearing * ty
      )
    }
    origin = WorldPoint(x: origin.x + tx, y: origin.y + ty)
    return .mat4(transform.clipMatrix(origin: origin, unitsToPoints: tileWorldSize / extent).floats)
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

  /// The `translate` and anchor paint values of a layer (`prefix` e.g. `fill`).
  func translation(_ layer: StyleLayer, prefix: String) -> (offset: (Double, Double), viewport: Bool) {
    let numbers = layer.property("\(prefix)-translate").evaluate(zoom: input.zoom).numbers ?? [0, 0]
    let viewport = layer.property("\(prefix)-translate-anchor").evaluate(zoom: input.zoom).string == "viewport"
    return ((numbers.first ?? 0, numbers.count > 1 ? numbers[1] : 0), viewport)
  }

  /// Uniforms of paint properties: values for constant ones, blend weights for per-vertex ones.
  func paintUniforms(_ bindings: [PaintBinding], layer: StyleLayer, mask: PaintMask, tile: BucketTile)
    -> [(name: String, value: UniformValue)]
  {
    var uniforms: [(name: String, value: UniformValue)] = []
    for binding in bindings {
      let property = layer.property(binding.property)
      if mask.contains(binding.mask) {
        let lower = Double(tile.zoom)
        let t = property.zoomInterpolationFactor(zoom: input.zoom, lower: lower, upper: lower + 1)
        uniforms.append(("u_\(binding.shaderName)_t", .float(Float(t))))
      } else if binding.isColor {
        uniforms.append(("u_\(binding.shaderName)", property.color(zoom: input.zoom).uniform))
      } else {
        uniforms.append(("u_\(binding.shaderName)", .float(Float(property.number(zoom: input.zoom)))))
      }
    }
    return uniforms
  }

  /// Forgets the clip masks (the stencil buffer was used for something else).
  mutating func invalidateClipMasks() {
    stencilSource = nil
    stencilReferences = [:]
    scissorSource = nil
    scissorRects = [:]
  }

  /// Clips the tiles of `source`: in an unrotated, untilted view with scissor rectangles (each
  /// group's area is then a rectangle of whole pixels: no stencil buffer work at all), else
  /// with stencil masks, drawn unless the last masks drawn were for the same source, clearing
  /// the stencil buffer first. Tiles drawn from one bucket share a reference (their areas
  /// join); groups beyond 255 get no mask and are drawn unclipped.
  mutating func clipMasks(source: String, groups: [BucketGroup], index: Int) {
    if scissorSource == source { return }
    if let rects = scissorRectangles(groups) {
      scissorSource = source
      scissorRects = rects
      return
    }
    scissorSource = nil
    scissorRects = [:]
    if stencilSource == source { return }
    stencilSource = source
    stencilReferences = [:]
    append(index, .clearStencil, .none, [])
    var next: Int32 = 1
    for group in groups {
      if next > 255 { break }
      stencilReferences[group.key] = next
      for tile in group.tiles {
        append(
          index, .style(StylePipeline(program: .clip)), .builtin(.unitSquare),
          [("u_matrix", tileMatrix(tile, extent: 1))], stencil: next)
      }
      next += 1
    }
  }

  /// The stencil reference of a group (nil when it got no mask or is clipped by a scissor).
  func stencilReference(_ tile: BucketTile) -> Int32? { scissorRects.isEmpty ? stencilReferences[tile] : nil }

  /// The scissor rectangle of a group (nil when clipped by a stencil mask).
  func scissor(_ tile: BucketTile) -> PixelRect? { scissorRects[tile] }

  /// Each group's area as a rectangle of window pixels, or nil unless every tile maps to an
  /// axis-aligned rectangle (no bearing, no tilt) and every group's tiles join into one. A
  /// pixel is inside when its centre is, with edges snapped to the rasteriser's 1/256 pixel
  /// grid, so the rectangle covers the pixels the group's stencil mask would.
  func scissorRectangles(_ groups: [BucketGroup]) -> [BucketTile: PixelRect]? {
    let width = Double(input.transform.viewport.pixelWidth)
    let height = Double(input.transform.viewport.pixelHeight)
    var rects: [BucketTile: PixelRect] = [:]
    for group in groups {
      var bounds = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
      var area = 0.0
      for tile in group.tiles {
        guard case .mat4(let floats) = tileMatrix(tile, extent: 1) else { return nil }
        let m = floats.map(Double.init)
        let scale = max(abs(m[0]), abs(m[5]))
        guard abs(m[1]) <= 1e-9 * scale, abs(m[4]) <= 1e-9 * scale, m[3] == 0, m[7] == 0, m[15] > 0 else {
          return nil
        }
        let xs = [(m[12] / m[15] + 1) / 2 * width, ((m[0] + m[12]) / m[15] + 1) / 2 * width]
        let ys = [(m[13] / m[15] + 1) / 2 * height, ((m[5] + m[13]) / m[15] + 1) / 2 * height]
        bounds.minX = min(bounds.minX, xs.min()!)
        bounds.maxX = max(bounds.maxX, xs.max()!)
        bounds.minY = min(bounds.minY, ys.min()!)
        bounds.maxY = max(bounds.maxY, ys.max()!)
        area += abs(xs[1] - xs[0]) * abs(ys[1] - ys[0])
      }
      let boundsArea = (bounds.maxX - bounds.minX) * (bounds.maxY - bounds.minY)
      guard boundsArea.isFinite, abs(boundsArea - area) <= 1e-6 * boundsArea else { return nil }
      /// The first pixel whose centre lies at or after `edge` (snapped to 1/256 pixel).
      func pixel(_ edge: Double, limit: Double) -> Int32 {
        Int32(min(max(((edge * 256).rounded() / 256 - 0.5).rounded(.up), 0), limit))
      }
      let x0 = pixel(bounds.minX, limit: width)
      let x1 = pixel(bounds.maxX, limit: width)
      let y0 = pixel(bounds.minY, limit: height)
      let y1 = pixel(bounds.maxY, limit: height)
      rects[group.key] = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    return rects
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

extension PaintBinding {
  /// The properties among `bindings` that are data-driven in `layer`.
  static func mask(_ bindings: [PaintBinding], layer: StyleLayer) -> PaintMask {
    var mask: PaintMask = []
    for binding in bindings where layer.property(binding.property).isDataDriven { mask.insert(binding.mask) }
    return mask
  }
}
