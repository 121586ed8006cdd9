import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// `fill-extrusion`: buildings drawn with the depth buffer so they hide each other (all
/// extrusion layers share it); 2D layers after them draw on top, as MapLibre composites them.
/// Opaque layers draw once; translucent ones draw depth first, then colour only the nearest
/// surface, each pixel once, so overlapping buildings and the copies neighbouring tiles hold
/// do not blend twice. With `fill-extrusion-pattern` roofs and walls show a sprite image
/// instead of the colour (walls measured along their ring and up in metres, as MapLibre Native
/// places it), lit alike.
struct FillExtrusionLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .fillExtrusion }
  var buildsBuckets: Bool { true }
  /// The height bounds the bucket's culling volume.
  var geometryPaintProperties: Set<String> { [FillExtrusionProperties.height.spec.name] }

  static let paint: [PaintBinding] = [
    .color(FillExtrusionProperties.color, "color"), .number(FillExtrusionProperties.height, "height"),
    .number(FillExtrusionProperties.base, "base"), .pattern(FillExtrusionProperties.pattern, "pattern"),
  ]

  static let program = StyleProgram(
    name: "fill_extrusion", vertexStride: 28,
    attributes: [
      VertexAttribute("a_pos", .float2), VertexAttribute("a_normal", .float3, offset: 8),
      VertexAttribute("a_data", .float2, offset: 20),
    ], paint: paint, indexType: .uint32, cull: .back)
  static let lightPosition = UniformSlot<SIMD3<Float>>("u_lightpos")
  static let lightColor = UniformSlot<SIMD3<Float>>("u_lightcolor")
  static let lightIntensity = UniformSlot<Float>("u_lightintensity")
  static let verticalGradient = UniformSlot<Float>("u_vertical_gradient")
  static let opacity = UniformSlot<Float>("u_opacity")
  /// Pattern units per metre up a wall (MapLibre Native's approximation, negative: up).
  static let heightFactor = UniformSlot<Float>("u_height_factor")

  /// Whether `layer` draws a pattern at style zoom `zoom`.
  static func isPatterned(_ layer: StyleLayer, zoom: Double) -> Bool {
    layer[FillExtrusionProperties.pattern].isDataDriven
      || layer.value(FillExtrusionProperties.pattern, zoom: zoom) != nil
  }

  /// The passes of an extrusion layer: one for opaque layers; depth only, then colour once per
  /// pixel, for translucent ones.
  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    let program = FillExtrusionLayerRenderer.program
    let mask = PaintBinding.mask(FillExtrusionLayerRenderer.paint, layer: layer)
    let pattern = FillExtrusionLayerRenderer.isPatterned(layer, zoom: context.zoom) ? ["PATTERN"] : []
    guard layer.value(FillExtrusionProperties.opacity, zoom: context.zoom) < 1 else {
      return [StylePipeline(program: program, mask: mask, switches: pattern, depth: .written)]
    }
    return [
      StylePipeline(
        program: program, mask: mask, switches: pattern + ["DEPTH_ONLY"], depth: .written, writesColor: false),
      StylePipeline(program: program, mask: mask, switches: pattern, depth: .written, oncePerPixel: true),
    ]
  }

  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry {
    FillExtrusionBucketBuilder.build(
      tile, layer: layer, zoom: context.zoom, patterns: context.patterns, states: context.states)
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    guard !tiles.isEmpty else { return }
    let zoom = planner.zoom
    let transform = planner.transform
    let opacity = layer.value(FillExtrusionProperties.opacity, zoom: zoom)
    guard opacity > 0 else { return }
    let groups = StyleFramePlanner.groups(tiles)
    let (translate, anchoredToViewport) = planner.translation(
      layer, FillExtrusionProperties.translate, anchor: FillExtrusionProperties.translateAnchor)
    let light = planner.input.light.direction(bearing: transform.camera.bearing)
    let lightColor = planner.input.light.color
    var shared = UniformValues()
    shared.set(FillExtrusionLayerRenderer.lightPosition, SIMD3(Float(light.x), Float(light.y), Float(light.z)))
    shared.set(
      FillExtrusionLayerRenderer.lightColor,
      SIMD3(Float(lightColor.red), Float(lightColor.green), Float(lightColor.blue)))
    shared.set(FillExtrusionLayerRenderer.lightIntensity, Float(planner.input.light.intensity))
    shared.set(
      FillExtrusionLayerRenderer.verticalGradient,
      layer.value(FillExtrusionProperties.verticalGradient, zoom: zoom) ? 1 : 0)
    shared.set(FillExtrusionLayerRenderer.opacity, Float(min(opacity, 1)))
    let passes = pipelines(layer, PipelineContext(zoom: zoom, clipsWithStencil: false))
    let patterned = FillExtrusionLayerRenderer.isPatterned(layer, zoom: zoom)
    var textures: [ResourceKey] = []
    if patterned {
      // Nothing is drawn when a constant image is missing.
      let position = PatternPaint.constantPosition(layer, FillExtrusionProperties.pattern, planner: planner)
      guard layer[FillExtrusionProperties.pattern].isDataDriven || position != nil else { return }
      shared = shared.merging(PatternPaint.atlasUniforms(planner, position: position))
      textures = [PatternPaint.texture(planner)]
    }
    // Heights are metres, scaled like MapLibre at the camera target's latitude; flat in frames
    // cut into tiles (walls would lean differently in each).
    let pointsPerMeter =
      planner.input.tileCuts == nil ? transform.pointsPerMeter(latitude: transform.camera.target.latitude) : 0
    let draws = groups.map { group in
      let tileWorldSize = transform.worldSize / Double(group.key.dataTile.tilesPerSide)
      var origin = group.key.covered.origin(worldSize: transform.worldSize)
      var (tx, ty) = translate
      if anchoredToViewport { (tx, ty) = StyleFramePlanner.rotatedToMap(tx, ty, transform) }
      origin.x += tx
      origin.y += ty
      let matrix = transform.clipMatrix(
        origin: origin, unitsToPoints: tileWorldSize / BucketGeometry.extent, heightToPoints: pointsPerMeter)
      var uniforms = UniformValues()
      uniforms.set(StyleFramePlanner.matrix, matrix)
      uniforms = uniforms.merging(shared).merging(
        planner.paintUniforms(FillExtrusionLayerRenderer.paint, layer: layer, mask: passes[0].mask, tile: group.key))
      if patterned {
        let dataTile = group.key.dataTile
        uniforms = uniforms.merging(
          PatternPaint.tileUniforms(dataTile, wrap: group.key.wrap, extent: BucketGeometry.extent, zoom: zoom))
        // MapLibre Native's −2^z / 512 / 8 tile units (of 8192 a tile) per metre, in bucket units.
        let factor = -pow(2, Double(dataTile.z)) / 4096 * BucketGeometry.extent / 8192
        uniforms.set(FillExtrusionLayerRenderer.heightFactor, Float(factor))
      }
      return (group: group, uniforms: uniforms, cull: CullVolume(matrix: matrix.floats, margin: 0))
    }
    for (index, pass) in passes.enumerated() {
      if index > 0 { planner.clearStencil() }
      for draw in draws {
        planner.draw(
          pass, planner.bucket(layer, draw.group.key), draw.uniforms,
          textures: pass.switches.contains("DEPTH_ONLY") ? [] : textures, stencil: pass.oncePerPixel ? 1 : nil,
          cull: draw.cull)
      }
    }
  }
}
