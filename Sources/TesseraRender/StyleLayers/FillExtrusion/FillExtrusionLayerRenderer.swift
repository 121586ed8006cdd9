import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// `fill-extrusion`: buildings drawn with the depth buffer so they hide each other (all
/// extrusion layers share it); 2D layers after them draw on top, as MapLibre composites them.
/// Opaque layers draw into the frame. Translucent ones draw opaque, with the frame's depth
/// buffer, into a target of their own the frame's size, which then goes over the frame with
/// the layer's opacity: each pixel gets the colour of its nearest surface, blended once, so
/// overlapping buildings and the copies neighbouring tiles hold do not blend twice. (A depth
/// pass followed by a colour pass that keeps fragments of equal depth would do the same only
/// where both passes compute bit-identical depths, which GLSL does not promise: on llvmpipe
/// without SSE, 15–23 % of the visible surfaces came out a few 2⁻²⁴ deeper in the colour
/// pass and let the map show through.) With `fill-extrusion-pattern` roofs and walls show a
/// sprite image instead of the colour (walls measured along their ring and up in metres, as
/// MapLibre Native places it), lit alike.
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
  /// A translucent layer's target laid over the frame, on the samples its buildings marked in
  /// the stencil (also the pass measuring how much of each pixel they cover).
  static let compositeProgram = StyleProgram(
    name: "fill_extrusion_texture", vertexStride: 8, attributes: [VertexAttribute("a_position", .float2)],
    stencil: StencilMode(test: .equal, reference: 1))
  static let image = UniformSlot<Int32>("u_image")
  static let coverage = UniformSlot<Int32>("u_coverage")
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

  /// Whether `layer` draws into a target of its own at style zoom `zoom`.
  static func isTranslucent(_ layer: StyleLayer, zoom: Double) -> Bool {
    layer.value(FillExtrusionProperties.opacity, zoom: zoom) < 1
  }

  /// The pipelines of an extrusion layer: the buildings. For translucent layers, drawn into
  /// the layer's target (the nearest surface's colour replacing farther ones') marking the
  /// samples they cover in the stencil; then that target over the frame; with a pattern, the
  /// pass measuring the coverage in between.
  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    let program = FillExtrusionLayerRenderer.program
    let mask = PaintBinding.mask(FillExtrusionLayerRenderer.paint, layer: layer)
    let pattern = FillExtrusionLayerRenderer.isPatterned(layer, zoom: context.zoom) ? ["PATTERN"] : []
    guard FillExtrusionLayerRenderer.isTranslucent(layer, zoom: context.zoom) else {
      return [StylePipeline(program: program, mask: mask, switches: pattern, depth: .written)]
    }
    let composite = FillExtrusionLayerRenderer.compositeProgram
    return [
      StylePipeline(
        program: program, mask: mask, switches: pattern, depth: .written, replacesColor: true, marksStencil: true),
      StylePipeline(program: composite, switches: pattern),
    ] + (pattern.isEmpty ? [] : [StylePipeline(program: composite, switches: ["COVERAGE"])])
  }

  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry {
    FillExtrusionBucketBuilder.build(
      tile, layer: layer, zoom: context.zoom, patterns: context.patterns, states: context.states,
      cancellation: context.cancellation)
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
    let made = pipelines(layer, PipelineContext(zoom: zoom, clipsWithStencil: false))
    let translucent = made.count > 1
    shared.set(FillExtrusionLayerRenderer.opacity, translucent ? 1 : Float(min(opacity, 1)))
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
        planner.paintUniforms(FillExtrusionLayerRenderer.paint, layer: layer, mask: made[0].mask, tile: group.key))
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
    guard translucent else {
      for draw in draws {
        planner.draw(made[0], planner.bucket(layer, draw.group.key), draw.uniforms, textures: textures, cull: draw.cull)
      }
      return
    }
    // The buildings, opaque, into the layer's target with the frame's depth buffer; the
    // samples they cover marked in the stencil (cleared first, clip masks forgotten). The
    // target is exactly the frame's size: the composite finds each pixel's texel by scaling
    // its clip-space position by the texture's size.
    let viewport = transform.viewport
    func target(_ name: String) -> OffscreenTarget {
      OffscreenTarget(
        name: name, width: viewport.pixelWidth, height: viewport.pixelHeight, format: .rgba8,
        clearColor: .transparent, sharesFrameDepth: true)
    }
    let colors = target("fill-extrusion")
    planner.clearStencil()
    planner.frame.switchTarget(.translucent, to: colors)
    for draw in draws {
      planner.draw(made[0], planner.bucket(layer, draw.group.key), draw.uniforms, textures: textures, cull: draw.cull)
    }
    var layerTextures = [colors.resourceKey]
    if made.count > 2 {
      // Images may be translucent, so the colours' alpha does not tell the covered fraction.
      let coverage = target("fill-extrusion-coverage")
      planner.frame.switchTarget(.translucent, to: coverage)
      planner.draw(made[2], .builtin(.fullScreenTriangle), UniformValues())
      layerTextures.append(coverage.resourceKey)
    }
    planner.frame.switchTarget(.translucent, to: nil)
    var uniforms = UniformValues()
    uniforms.set(FillExtrusionLayerRenderer.image, 0)
    if layerTextures.count > 1 { uniforms.set(FillExtrusionLayerRenderer.coverage, 1) }
    uniforms.set(FillExtrusionLayerRenderer.opacity, Float(opacity))
    planner.draw(made[1], .builtin(.fullScreenTriangle), uniforms, textures: layerTextures)
  }
}
