import Dispatch
import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle

/// `hillshade`: each DEM tile's prepared slopes (see ``HillshadePreparation``) shaded by the
/// illumination direction (turned with the map's bearing when anchored to the viewport) and
/// the three colours. Flat ground shades to nothing, so a tile draws only the rectangles of
/// its slope texture's cells that hold any slope (its ``TextureOccupancy``): the sea and
/// plains cost no pixels.
///
/// Each tile's shading is drawn once per texel into a texture of the tile's size (its bake,
/// kept in the GPU cache while the light, colours and exaggeration hold: a turn of the map
/// with viewport-anchored light bakes again), and frames draw the bake, filtered: a sampled
/// texel per pixel instead of the shading arithmetic per pixel. Shading texels and filtering
/// the colours differs from filtering the slopes and shading each pixel by a few levels where
/// the slopes bend between texels.
struct HillshadeLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .hillshade }

  /// Rectangles of a DEM tile's square with its slopes, one instance each (the vertex stage is
  /// raster's, with `RECTS`).
  static let program = StyleProgram(
    name: "hillshade", vertexStride: 8, attributes: [VertexAttribute("a_position", .float2)],
    primitive: .triangleStrip, instanceStride: 16, instanceAttributes: [VertexAttribute("a_rect", .float4, buffer: 1)]
  )
  static let image = UniformSlot<Int32>("u_image")
  /// Exaggeration and illumination azimuth (radians).
  static let light = UniformSlot<SIMD2<Float>>("u_light")
  static let slopeCurve = UniformSlot<SIMD2<Float>>("u_slope_curve")
  /// cos and sin of the shader's azimuth.
  static let azimuth = UniformSlot<SIMD2<Float>>("u_azimuth")
  static let shadow = UniformSlot<Color>("u_shadow")
  static let highlight = UniformSlot<Color>("u_highlight")
  static let accent = UniformSlot<Color>("u_accent")
  /// The latitudes (degrees) of the data tile's north and south edges.
  static let latitudeRange = UniformSlot<SIMD2<Float>>("u_latrange")

  /// The slopes of a DEM tile, by source, data tile and which neighbours filled its border.
  struct SlopesKey: Hashable, Sendable, CustomStringConvertible {
    let source: String
    let tile: TileID
    /// Bit i set when neighbour i (see ``HillshadePreparation/neighbourOffsets``) was loaded.
    let neighbours: UInt8
    var description: String { "hillshade \(source) \(tile) neighbours \(neighbours)" }
  }

  /// The hillshade programs: the shading (`LINEAR_SLOPE` at exaggeration 0.5, where the slope
  /// curve is the identity, no trigonometry for the slope: Liberty's hillshade; `SLOPE_TABLE`
  /// at any other constant exaggeration, the curve looked up: see ``slopeTable(exaggeration:)``;
  /// else the formula), then the tiles' baked shading drawn onto the map (`BAKED`).
  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    let switches: [String]
    switch HillshadeLayerRenderer.slopeTableKey(layer, zoom: context.zoom) {
    case .some(nil): switches = ["LINEAR_SLOPE", "RECTS"]
    case .some(.some): switches = ["RECTS", "SLOPE_TABLE"]
    case .none: switches = ["RECTS"]
    }
    return [
      StylePipeline(program: HillshadeLayerRenderer.program, switches: switches),
      StylePipeline(program: HillshadeLayerRenderer.program, switches: ["BAKED", "RECTS"]),
    ]
  }

  /// The unit the slope table is bound to.
  static let slopeTableUnit = UniformSlot<Int32>("u_slope_table")
  /// Entries of the slope table.
  static let slopeTableWidth = 1024

  /// The slope table of a constant exaggeration.
  struct SlopeTableKey: Hashable, Sendable, CustomStringConvertible {
    let exaggeration: Double
    var description: String { "hillshade slope table \(exaggeration)" }
  }

  /// How a layer shades slopes at `zoom`: `.some(nil)` by the identity (exaggeration 0.5),
  /// `.some(key)` from the table of its constant exaggeration, nil by the formula (an
  /// exaggeration that changes with zoom).
  static func slopeTableKey(_ layer: StyleLayer, zoom: Double) -> SlopeTableKey?? {
    let exaggeration = layer.value(HillshadeProperties.exaggeration, zoom: zoom)
    if exaggeration == 0.5 { return .some(nil) }
    guard layer[HillshadeProperties.exaggeration].expression.constantValue != nil else { return nil }
    return .some(SlopeTableKey(exaggeration: exaggeration))
  }

  /// sin and 1 − cos of MapLibre's curved slope, (base^slope − 1) / (base^(π/2) − 1) · π/2 with
  /// base = 1.875 − 1.75 · exaggeration, at slope = atan(u / (1 − u)) for u = i / 1023: each
  /// as 16-bit fixed point in two bytes (high, low), RGBA texels. Linear between entries the
  /// curve is off by under 1e-5 (the shader's own float precision).
  static func slopeTable(exaggeration: Double) -> [UInt8] {
    let base = 1.875 - exaggeration * 1.75
    let maxValue = Double.pi / 2
    var texels = [UInt8](repeating: 0, count: slopeTableWidth * 4)
    for index in 0..<slopeTableWidth {
      let u = Double(index) / Double(slopeTableWidth - 1)
      let slope = atan2(u, 1 - u)
      let scaled = (pow(base, slope) - 1) / (pow(base, maxValue) - 1) * maxValue
      for (channel, value) in [(0, sin(scaled)), (2, 1 - cos(scaled))] {
        let fixed = value.isFinite ? UInt16(clamping: (min(max(value, 0), 1) * 65535).rounded()) : 0
        texels[index * 4 + channel] = UInt8(fixed >> 8)
        texels[index * 4 + channel + 1] = UInt8(fixed & 0xFF)
      }
    }
    return texels
  }

  func layerTextures(_ layer: StyleLayer, revision: Int) -> [LayerTexture] {
    guard case .some(.some(let key)) = HillshadeLayerRenderer.slopeTableKey(layer, zoom: 0) else { return [] }
    return [
      LayerTexture(
        key: ResourceKey(key), width: HillshadeLayerRenderer.slopeTableWidth, height: 1,
        texels: { HillshadeLayerRenderer.slopeTable(exaggeration: key.exaggeration) })
    ]
  }

  /// A DEM tile's slope texture to make: its key (which neighbours it was made with), the
  /// tile, its neighbours in ``HillshadePreparation/neighbourOffsets`` order and its zoom.
  struct SlopeJob {
    let key: ResourceKey
    let tile: TileID
    let dem: DEMTile
    let neighbours: [DEMTile?]
    let zoom: Int
  }

  /// The slope textures of the DEM tiles among `tiles`, one per data tile, in tile order.
  func slopeJobs(_ tiles: [RenderTile], source: RenderSource) -> [SlopeJob] {
    var dems: [TileID: DEMTile] = [:]
    for tile in tiles { if case .dem(let dem) = tile.content { dems[tile.dataTile] = dem } }
    return dems.keys.sorted().map { tile in
      let side = tile.tilesPerSide
      let neighbours: [DEMTile?] = HillshadePreparation.neighbourOffsets.map { offset in
        let y = tile.y + offset.dy
        guard y >= 0, y < side else { return nil }
        return dems[TileID(z: tile.z, x: ((tile.x + offset.dx) % side + side) % side, y: y)]
      }
      var mask: UInt8 = 0
      for (index, neighbour) in neighbours.enumerated() where neighbour != nil { mask |= 1 << UInt8(index) }
      return SlopeJob(
        key: ResourceKey(SlopesKey(source: source.id, tile: tile, neighbours: mask)), tile: tile, dem: dems[tile]!,
        neighbours: neighbours, zoom: tile.z)
    }
  }

  /// The slope texture of `job`, made on the calling thread.
  static func slopes(_ job: SlopeJob, maxZoom: Int) -> PreparedTexture {
    let slopes = HillshadePreparation.prepareWithOccupancy(
      job.dem, neighbours: job.neighbours, zoom: job.zoom, maxZoom: maxZoom)
    return PreparedTexture(
      width: job.dem.width, height: job.dem.height, pixels: slopes.pixels, occupancy: slopes.occupancy)
  }

  /// The slope textures of the DEM tiles not `cached`, made in parallel.
  func prepareTextures(_ tiles: [RenderTile], source: RenderSource, cached: Set<ResourceKey>)
    -> [ResourceKey: PreparedTexture]
  {
    let jobs = slopeJobs(tiles, source: source).filter { !cached.contains($0.key) }
    let maxZoom = source.pyramid.maxZoom
    let prepared = ParallelWork.map(jobs) { HillshadeLayerRenderer.slopes($0, maxZoom: maxZoom) }
    return Dictionary(zip(jobs.map(\.key), prepared)) { first, _ in first }
  }

  /// Prepares (in parallel, unless prepared ahead) and uploads the slope textures of DEM
  /// tiles, borders filled from the neighbours loaded in the same frame.
  func uploadTextures(_ tiles: [RenderTile], source: RenderSource, uploader: inout TileTextureUploader)
    throws(GLError) -> [TileID: ResourceKey]
  {
    let jobs = slopeJobs(tiles, source: source)
    let missing = jobs.filter { uploader.resources.texture($0.key) == nil }
    let maxZoom = source.pyramid.maxZoom
    let prepareStart = DispatchTime.now()
    let made = ParallelWork.map(missing.filter { uploader.prepared[$0.key] == nil }) {
      HillshadeLayerRenderer.slopes($0, maxZoom: maxZoom)
    }
    uploader.preparationMilliseconds += milliseconds(prepareStart, DispatchTime.now())
    var madeInOrder = made.makeIterator()
    for job in missing {
      guard let slopes = uploader.prepared[job.key] ?? madeInOrder.next() else {
        assertionFailure("a slope texture was neither prepared nor made")
        continue
      }
      try uploader.resources.insertTexture(
        job.key, width: slopes.width, height: slopes.height, pixels: slopes.pixels, occupancy: slopes.occupancy)
    }
    return Dictionary(uniqueKeysWithValues: jobs.map { ($0.tile, $0.key) })
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    let zoom = planner.zoom
    var azimuth = layer.value(HillshadeProperties.illuminationDirection, zoom: zoom) * .pi / 180
    if layer.value(HillshadeProperties.illuminationAnchor, zoom: zoom) != .map {
      azimuth += planner.transform.camera.bearing * .pi / 180
    }
    let exaggeration = layer.value(HillshadeProperties.exaggeration, zoom: zoom)
    let base = 1.875 - exaggeration * 1.75
    let maxValue = Double.pi / 2
    // The shader's azimuth is the direction + π.
    let shaderAzimuth = azimuth + .pi
    let light = SIMD2(Float(exaggeration), Float(azimuth))
    let curve = base == 1 ? SIMD2<Float>(0, 0) : SIMD2(Float(log2(base)), Float(maxValue / (pow(base, maxValue) - 1)))
    let direction = SIMD2(Float(cos(shaderAzimuth)), Float(sin(shaderAzimuth)))
    let colors = [
      layer.value(HillshadeProperties.shadowColor, zoom: zoom),
      layer.value(HillshadeProperties.highlightColor, zoom: zoom),
      layer.value(HillshadeProperties.accentColor, zoom: zoom),
    ]
    var paint = UniformValues()
    paint.set(HillshadeLayerRenderer.image, 0)
    paint.set(HillshadeLayerRenderer.light, light)
    paint.set(HillshadeLayerRenderer.slopeCurve, curve)
    paint.set(HillshadeLayerRenderer.azimuth, direction)
    paint.set(HillshadeLayerRenderer.shadow, colors[0])
    paint.set(HillshadeLayerRenderer.highlight, colors[1])
    paint.set(HillshadeLayerRenderer.accent, colors[2])
    let made = pipelines(layer, PipelineContext(zoom: zoom, clipsWithStencil: false))
    let shading = made[0]
    var slopeTable: [ResourceKey] = []
    if case .some(.some(let key)) = HillshadeLayerRenderer.slopeTableKey(layer, zoom: zoom) {
      slopeTable = [ResourceKey(key)]
      paint.set(HillshadeLayerRenderer.slopeTableUnit, 1)
    }
    let resources = planner.frame.resources
    // Each DEM tile's shading is drawn into a texture of its own when the light, colours or
    // the cells the view needs changed, in the frame's prelude: drawn before the frame's own
    // pass, the texture is ready when the layer samples it (drawn at the layer's place, the
    // frame would stop there until the rasteriser had finished everything before it; a
    // viewport-anchored light bakes again at every turn of the map). Render tiles drawing one
    // DEM tile share its bake, which shades the cells any of them shows.
    var bakes: [ResourceKey: PendingBake] = [:]
    var bakeOrder: [ResourceKey] = []
    for tile in tiles {
      guard let texture = planner.texture(layer, tile) else { continue }
      let occupancy = resources.occupancy(texture)
      let rects = HillshadeLayerRenderer.rectangles(occupancy, textureRect: tile.textureRect)
      guard !rects.isEmpty else { continue }
      let data = tile.dataTile
      let tiles = Double(data.tilesPerSide)
      let north = Mercator.unproject(WorldPoint(x: 0, y: Double(data.y)), worldSize: tiles).latitude
      let south = Mercator.unproject(WorldPoint(x: 0, y: Double(data.y + 1)), worldSize: tiles).latitude
      let latitudes = SIMD2(Float(north), Float(south))
      let matrix = planner.tileMatrix(tile.covered, extent: 1, pixelAligned: true)
      var uniforms = planner.imageTileUniforms(tile, matrix: matrix)
      guard resources.bakesTileShading, let texels = resources.textureSize(texture) else {
        uniforms.set(HillshadeLayerRenderer.latitudeRange, latitudes)
        planner.draw(
          shading, HillshadeLayerRenderer.rectangleMesh(rects), uniforms.merging(paint), instances: rects.count,
          textures: [texture] + slopeTable)
        continue
      }
      let bake = ResourceKey(BakeKey(layer: layer.id, slopes: texture, revision: planner.input.revision))
      if bakes[bake] == nil {
        var cells = occupancy.map(HillshadeBakeCells.init)
        if !resources.bakesShownCellsOnly { cells?.showAll() }
        bakes[bake] = PendingBake(slopes: texture, texels: texels, latitudes: latitudes, cells: cells)
        bakeOrder.append(bake)
      }
      // A tile none of whose cells is in view draws no pixel: neither drawn nor baked for.
      guard bakes[bake]?.cells?.addShown(textureRect: tile.textureRect, matrix: matrix) ?? true else { continue }
      uniforms.set(HillshadeLayerRenderer.image, 0)
      planner.draw(
        made[1], HillshadeLayerRenderer.rectangleMesh(rects), uniforms, instances: rects.count, textures: [bake])
    }
    for bake in bakeOrder {
      guard let pending = bakes[bake], pending.cells?.isEmpty != true else { continue }
      let cells = pending.cells?.baked
      let latitudes = pending.latitudes
      var version = Hasher()
      for value in [light.x, light.y, curve.x, curve.y, direction.x, direction.y, latitudes.x, latitudes.y] {
        version.combine(value)
      }
      for color in colors { version.combine(color) }
      version.combine(shading)
      version.combine(cells)
      let current = version.finalize()
      guard resources.textureVersion(bake) != current else { continue }
      planner.frame.switchTarget(
        .prelude,
        to: OffscreenTarget(
          name: "\(bake)", width: pending.texels.width, height: pending.texels.height, format: .rgba8,
          clearColor: .transparent, cachedTexture: bake, version: current))
      var bakeUniforms = UniformValues()
      bakeUniforms.set(StyleFramePlanner.matrix, HillshadeLayerRenderer.textureToClip)
      bakeUniforms.set(StyleFramePlanner.textureRect, SIMD4(0, 0, 1, 1))
      bakeUniforms.set(HillshadeLayerRenderer.latitudeRange, latitudes)
      let drawn = HillshadeLayerRenderer.rectangles(cells, textureRect: (0, 0, 1, 1))
      planner.draw(
        shading, HillshadeLayerRenderer.rectangleMesh(drawn), bakeUniforms.merging(paint), instances: drawn.count,
        textures: [pending.slopes] + slopeTable, pass: .prelude)
      planner.frame.switchTarget(.prelude, to: nil)
    }
  }

  /// A DEM tile's bake while the frame's tiles are planned: its slope texture and size, its
  /// latitudes and the cells the tiles drawing it show (nil: the texture's occupancy is not
  /// known, so all of it is shaded).
  struct PendingBake {
    let slopes: ResourceKey
    let texels: (width: Int, height: Int)
    let latitudes: SIMD2<Float>
    var cells: HillshadeBakeCells?
  }

  /// A DEM tile's shading drawn into a texture of its own, for one hillshade layer: kept across
  /// frames while its version (the light, colours and the cells shaded) holds.
  struct BakeKey: Hashable, Sendable, CustomStringConvertible {
    let layer: String
    /// The slope texture it shades.
    let slopes: ResourceKey
    let revision: Int
    var description: String { "hillshade \(layer) of \(slopes)" }
  }

  /// The unit square (a tile's texture, y down) onto a whole render target: texel row 0 of the
  /// texture drawn is row 0 of the target, so sampling the result reads it the same way.
  static let textureToClip = Mat4.translation(-1, -1, 0) * Mat4.scale(2, 2, 1)

  /// Rectangles drawn as instances of the unit square.
  static func rectangleMesh(_ rects: [SIMD4<Float>]) -> MeshReference {
    .instanced(.unitQuadStrip, InstanceData(bytes: rects.withUnsafeBytes { [UInt8]($0) }, count: rects.count))
  }

  /// The rectangles of a tile's square to draw (min x, min y, max x, max y, 0…1 across it):
  /// the occupied cells of the part `textureRect` of its slope texture, or the whole square
  /// when the texture's occupancy is unknown.
  static func rectangles(
    _ occupancy: TextureOccupancy?, textureRect: (x: Double, y: Double, width: Double, height: Double)
  ) -> [SIMD4<Float>] {
    guard let occupancy, !occupancy.isFull else { return [SIMD4(0, 0, 1, 1)] }
    return occupancy.runs(in: textureRect)
  }
}
