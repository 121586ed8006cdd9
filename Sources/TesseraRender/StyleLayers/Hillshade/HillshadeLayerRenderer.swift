import Dispatch
import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraStyle

/// `hillshade`: each DEM tile's prepared slopes (see ``HillshadePreparation``) shaded by the
/// illumination direction (turned with the map's bearing when anchored to the viewport) and
/// the three colours. Flat ground shades to nothing, so a tile draws only the rectangles of
/// its slope texture's cells that hold any slope (its ``TextureOccupancy``): the sea and
/// plains cost no pixels.
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

  /// The hillshade program: `LINEAR_SLOPE` at exaggeration 0.5, where the slope curve is the
  /// identity (no trigonometry for the slope: Liberty's hillshade); `SLOPE_TABLE` at any other
  /// constant exaggeration (the curve looked up: see ``slopeTable(exaggeration:)``); else the
  /// formula.
  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    let switches: [String]
    switch HillshadeLayerRenderer.slopeTableKey(layer, zoom: context.zoom) {
    case .some(nil): switches = ["LINEAR_SLOPE", "RECTS"]
    case .some(.some): switches = ["RECTS", "SLOPE_TABLE"]
    case .none: switches = ["RECTS"]
    }
    return [StylePipeline(program: HillshadeLayerRenderer.program, switches: switches)]
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
        let fixed = value.isFinite ? UInt16((min(max(value, 0), 1) * 65535).rounded()) : 0
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

  /// Prepares (in parallel) and uploads the slope textures of DEM tiles, borders filled from
  /// the neighbours loaded in the same frame.
  func uploadTextures(_ tiles: [RenderTile], source: RenderSource, uploader: inout TileTextureUploader)
    throws(GLError) -> [TileID: ResourceKey]
  {
    var dems: [TileID: DEMTile] = [:]
    for tile in tiles { if case .dem(let dem) = tile.content { dems[tile.dataTile] = dem } }
    var keys: [TileID: ResourceKey] = [:]
    var jobs: [(key: ResourceKey, dem: DEMTile, neighbours: [DEMTile?], zoom: Int)] = []
    for tile in dems.keys.sorted() {
      let side = tile.tilesPerSide
      let neighbours: [DEMTile?] = HillshadePreparation.neighbourOffsets.map { offset in
        let y = tile.y + offset.dy
        guard y >= 0, y < side else { return nil }
        return dems[TileID(z: tile.z, x: ((tile.x + offset.dx) % side + side) % side, y: y)]
      }
      var mask: UInt8 = 0
      for (index, neighbour) in neighbours.enumerated() where neighbour != nil { mask |= 1 << UInt8(index) }
      let key = ResourceKey(SlopesKey(source: source.id, tile: tile, neighbours: mask))
      keys[tile] = key
      if uploader.resources.texture(key) == nil { jobs.append((key, dems[tile]!, neighbours, tile.z)) }
    }
    let maxZoom = source.pyramid.maxZoom
    let prepareStart = DispatchTime.now()
    let prepared = ParallelWork.map(jobs) { job in
      HillshadePreparation.prepareWithOccupancy(job.dem, neighbours: job.neighbours, zoom: job.zoom, maxZoom: maxZoom)
    }
    uploader.preparationMilliseconds += milliseconds(prepareStart, DispatchTime.now())
    for (job, slopes) in zip(jobs, prepared) {
      try uploader.resources.insertTexture(
        job.key, width: job.dem.width, height: job.dem.height, pixels: slopes.pixels, occupancy: slopes.occupancy)
    }
    return keys
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
    var paint = UniformValues()
    paint.set(HillshadeLayerRenderer.image, 0)
    paint.set(HillshadeLayerRenderer.light, SIMD2(Float(exaggeration), Float(azimuth)))
    paint.set(
      HillshadeLayerRenderer.slopeCurve,
      base == 1 ? SIMD2(0, 0) : SIMD2(Float(log2(base)), Float(maxValue / (pow(base, maxValue) - 1))))
    paint.set(HillshadeLayerRenderer.azimuth, SIMD2(Float(cos(shaderAzimuth)), Float(sin(shaderAzimuth))))
    paint.set(HillshadeLayerRenderer.shadow, layer.value(HillshadeProperties.shadowColor, zoom: zoom))
    paint.set(HillshadeLayerRenderer.highlight, layer.value(HillshadeProperties.highlightColor, zoom: zoom))
    paint.set(HillshadeLayerRenderer.accent, layer.value(HillshadeProperties.accentColor, zoom: zoom))
    let pipeline = pipelines(layer, PipelineContext(zoom: zoom, clipsWithStencil: false))[0]
    var slopeTable: [ResourceKey] = []
    if case .some(.some(let key)) = HillshadeLayerRenderer.slopeTableKey(layer, zoom: zoom) {
      slopeTable = [ResourceKey(key)]
      paint.set(HillshadeLayerRenderer.slopeTableUnit, 1)
    }
    for tile in tiles {
      guard let texture = planner.texture(layer, tile) else { continue }
      let rects = HillshadeLayerRenderer.rectangles(
        planner.frame.resources.occupancy(texture), textureRect: tile.textureRect)
      guard !rects.isEmpty else { continue }
      let data = tile.dataTile
      let tiles = Double(data.tilesPerSide)
      let north = Mercator.unproject(WorldPoint(x: 0, y: Double(data.y)), worldSize: tiles).latitude
      let south = Mercator.unproject(WorldPoint(x: 0, y: Double(data.y + 1)), worldSize: tiles).latitude
      var uniforms = planner.imageTileUniforms(tile)
      uniforms.set(HillshadeLayerRenderer.latitudeRange, SIMD2(Float(north), Float(south)))
      let bytes = rects.withUnsafeBytes { [UInt8]($0) }
      planner.draw(
        pipeline, .instanced(.unitQuadStrip, InstanceData(bytes: bytes, count: rects.count)), uniforms.merging(paint),
        instances: rects.count, textures: [texture] + slopeTable)
    }
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
