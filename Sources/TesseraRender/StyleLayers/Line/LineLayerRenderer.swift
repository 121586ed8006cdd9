import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle

/// `line`: the tessellated lines of every tile, widths in points; with `line-dasharray`,
/// dashes measured in line widths at the integer zoom (so, as in MapLibre, they scale with the
/// map between integer zooms). With `line-pattern` a sprite image repeats along the line
/// instead of its colour (and dashes), centred across it (see ``PatternPaint``). With
/// `line-gradient` (and neither) the colour follows the line's progress through a ramp texture.
struct LineLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .line }
  var buildsBuckets: Bool { true }
  /// A gradient makes the bucket store progress along lines instead of distances.
  var geometryPaintProperties: Set<String> { [LineProperties.gradient.spec.name] }

  static let paint: [PaintBinding] = [
    .color(LineProperties.color, "color"), .number(LineProperties.opacity, "opacity"),
    .number(LineProperties.width, "width"), .number(LineProperties.gapWidth, "gapwidth"),
    .number(LineProperties.offset, "offset"), .number(LineProperties.blur, "blur"),
    .pattern(LineProperties.pattern, "pattern"),
  ]

  static let program = StyleProgram(
    name: "line", vertexStride: 32,
    attributes: [
      VertexAttribute("a_pos", .float2), VertexAttribute("a_normal", .float2, offset: 8),
      VertexAttribute("a_extrude", .float2, offset: 16), VertexAttribute("a_data", .float2, offset: 24),
    ], paint: paint, indexType: .uint32, switchesKeepingInputs: [dashed])
  /// The switch of dashed lines (line-dasharray).
  static let dashed = "DASHED"
  /// Points per tile unit.
  static let ratio = UniformSlot<Float>("u_ratio")
  /// Clip units to points.
  static let unitsToPixels = UniformSlot<SIMD2<Float>>("u_units_to_pixels")
  static let devicePixelRatio = UniformSlot<Float>("u_device_pixel_ratio")

  /// The sampler of a gradient's ramp.
  static let gradientImage = UniformSlot<Int32>("u_image")

  /// Whether `layer` colours its lines by progress at style zoom `zoom` (a pattern or dashes
  /// take precedence, as in MapLibre).
  static func drawsGradient(_ layer: StyleLayer, zoom: Double) -> Bool {
    layer[LineProperties.gradient].expression.constantValue != .null && !isPatterned(layer, zoom: zoom)
      && LineDashes(layer: layer, zoom: zoom) == nil
  }

  /// The texture of a layer's gradient ramp.
  static func gradientKey(revision: Int, layer: StyleLayer) -> ResourceKey {
    ResourceKey(ColorRampKey(revision: revision, layer: layer.id, kind: "line-gradient"))
  }

  /// Whether `layer` draws a pattern at style zoom `zoom`.
  static func isPatterned(_ layer: StyleLayer, zoom: Double) -> Bool {
    layer[LineProperties.pattern].isDataDriven || layer.value(LineProperties.pattern, zoom: zoom) != nil
  }

  /// The line's pipeline: patterned, else dashed when `dashes` has a pattern; clipped to tiles
  /// or not.
  func linePipeline(_ layer: StyleLayer, zoom: Double, dashes: LineDashes?, clipped: Bool, clipPlanes: Bool)
    -> StylePipeline
  {
    let switches: [String] =
      if LineLayerRenderer.isPatterned(layer, zoom: zoom) {
        ["PATTERN"]
      } else if dashes != nil {
        [LineLayerRenderer.dashed]
      } else if LineLayerRenderer.drawsGradient(layer, zoom: zoom) {
        ["GRADIENT"]
      } else {
        []
      }
    return StylePipeline(
      program: LineLayerRenderer.program, mask: PaintBinding.mask(LineLayerRenderer.paint, layer: layer),
      switches: switches, clipped: clipped, clipPlanes: clipPlanes)
  }

  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    context.clipPipelines + [
      linePipeline(
        layer, zoom: context.zoom, dashes: LineDashes(layer: layer, zoom: context.zoom),
        clipped: context.clipsWithStencil, clipPlanes: context.clipsByPlanes)
    ]
  }

  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry {
    LineBucketBuilder.build(
      tile, layer: layer, zoom: context.zoom, overscale: context.overscale, patterns: context.patterns,
      states: context.states, cancellation: context.cancellation)
  }

  func layerTextures(_ layer: StyleLayer, revision: Int) -> [LayerTexture] {
    var textures: [LayerTexture] = []
    // Every dash pattern the layer may draw.
    if layer[LineProperties.dashArray].expression.constantValue != .null {
      for dashes in LineDashes.textures(of: layer) {
        textures.append(
          LayerTexture(
            key: dashes.textureKey, width: LineDashes.textureWidth, height: dashes.textureHeight,
            wrap: .repeatAcross, texels: { dashes.texels() }))
      }
    }
    if layer[LineProperties.gradient].expression.constantValue != .null {
      textures.append(
        LayerTexture(
          key: LineLayerRenderer.gradientKey(revision: revision, layer: layer), width: ColorRamp.width, height: 1,
          texels: {
            ColorRamp.texels(layer[LineProperties.gradient]) { context, progress in context.lineProgress = progress }
          }))
    }
    return textures
  }

  /// What planning a line layer works out from the layer and the zoom alone (kept between
  /// frames in the planner's memo).
  struct Constants: Sendable {
    let translate: (Double, Double)
    let anchoredToViewport: Bool
    let dashes: LineDashes?
    let reach: Double?
    let line: StylePipeline

    init(_ layer: StyleLayer, planner: StyleFramePlanner, clipPlanes: Bool) {
      (translate, anchoredToViewport) = planner.translation(
        layer, LineProperties.translate, anchor: LineProperties.translateAnchor)
      dashes = LineDashes(layer: layer, zoom: planner.zoom)
      reach = LineLayerRenderer.reach(layer, zoom: planner.zoom)
      line = LineLayerRenderer().linePipeline(
        layer, zoom: planner.zoom, dashes: dashes, clipped: false, clipPlanes: clipPlanes)
    }
  }

  /// A line layer's paint uniforms for buckets of one tile zoom (kept in the planner's memo).
  struct PaintUniforms: Sendable {
    let values: UniformValues
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    guard let source = layer.source, !tiles.isEmpty else { return }
    let zoom = planner.zoom
    let groups = StyleFramePlanner.groups(tiles)
    // Clipping (and so whether the pipeline clips by planes) is set up for the source first.
    planner.clipMasks(source: source, groups: groups)
    let clipPlanes = planner.clipping.clipsByPlanes
    let constants = planner.memo(layer, variant: clipPlanes ? 1 : 0) { [planner] in
      Constants(layer, planner: planner, clipPlanes: clipPlanes)
    }
    let (translate, anchoredToViewport) = (constants.translate, constants.anchoredToViewport)
    let dashes = constants.dashes
    let viewport = planner.transform.viewport
    let reach = constants.reach
    let line = constants.line
    let patterned = line.switches.contains("PATTERN")
    let gradient = line.switches.contains("GRADIENT")
    var patternUniforms = UniformValues()
    if patterned {
      // Nothing is drawn when a constant image is missing.
      let position = PatternPaint.constantPosition(layer, LineProperties.pattern, planner: planner)
      guard layer[LineProperties.pattern].isDataDriven || position != nil else { return }
      patternUniforms = PatternPaint.atlasUniforms(planner, position: position)
    }
    for group in groups {
      let tile = group.key
      let stencil = planner.stencilReference(tile)
      let pipeline = line.clipped(stencil != nil)
      let tileWorldSize = planner.transform.worldSize / Double(tile.dataTile.tilesPerSide)
      let matrix = planner.tileMatrix(
        tile.covered, extent: BucketGeometry.extent, translate: translate, viewportAnchored: anchoredToViewport)
      var uniforms = UniformValues()
      uniforms.set(StyleFramePlanner.matrix, matrix)
      uniforms.set(LineLayerRenderer.ratio, Float(tileWorldSize / BucketGeometry.extent))
      uniforms.set(LineLayerRenderer.unitsToPixels, SIMD2(Float(viewport.width / 2), Float(-viewport.height / 2)))
      uniforms.set(LineLayerRenderer.devicePixelRatio, Float(planner.pixelRatio))
      uniforms = uniforms.merging(
        planner.memo(layer, variant: tile.zoom) { [planner] in
          PaintUniforms(
            values: planner.paintUniforms(LineLayerRenderer.paint, layer: layer, mask: line.mask, tile: tile))
        }.values)
      if patterned {
        uniforms = uniforms.merging(patternUniforms).merging(
          PatternPaint.tileUniforms(tile.dataTile, wrap: tile.wrap, extent: BucketGeometry.extent, zoom: zoom))
      } else if gradient {
        uniforms.set(LineLayerRenderer.gradientImage, 0)
      } else {
        dashes?.setUniforms(&uniforms, tileZoom: tile.dataTile.z, zoom: zoom, pixelRatio: planner.pixelRatio)
      }
      let textures =
        patterned
        ? [PatternPaint.texture(planner)]
        : gradient
          ? [LineLayerRenderer.gradientKey(revision: planner.input.revision, layer: layer)]
          : dashes.map { [$0.textureKey] } ?? []
      for area in planner.clipAreas(group, translate: translate, viewportAnchored: anchoredToViewport) {
        uniforms.set(StyleFramePlanner.tileClip, area)
        planner.draw(
          pipeline, planner.bucket(layer, tile), uniforms, textures: textures,
          stencil: stencil,
          cull: reach.map { CullVolume(matrix: matrix.floats, margin: $0 * BucketGeometry.extent / tileWorldSize) },
          scissor: planner.scissor(tile))
      }
    }
  }

  /// How far (points) a line layer's drawing may reach from its centre line: the width
  /// stretched by miter joins, gap, offset and blur, with room for antialiasing; nil when one
  /// of them is data-driven (the layer is then never culled).
  static func reach(_ layer: StyleLayer, zoom: Double) -> Double? {
    let numbers = [
      LineProperties.width, LineProperties.gapWidth, LineProperties.offset, LineProperties.blur,
      LineProperties.miterLimit,
    ]
    guard !numbers.contains(where: { layer[$0].isDataDriven }) else { return nil }
    let value = { (property: StyleProperty<Double>) in abs(layer.value(property, zoom: zoom)) }
    let width = value(LineProperties.width)
    let gap = value(LineProperties.gapWidth)
    return max(value(LineProperties.miterLimit), 1) * (width + 2 * gap) + value(LineProperties.offset)
      + value(LineProperties.blur) + 2
  }
}
