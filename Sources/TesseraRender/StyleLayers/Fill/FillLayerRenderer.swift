import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// `fill`: triangles of every tile, then (with `fill-antialias`) their outlines as 2-pixel GL
/// lines that soften the edges, in `fill-outline-color` when set. With `fill-pattern` the
/// triangles (and outlines without their own colour) draw a sprite image instead of a colour
/// (see ``PatternPaint``).
struct FillLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .fill }
  var buildsBuckets: Bool { true }
  /// Whether an outline colour is given decides the outline's paint attributes.
  var geometryPaintProperties: Set<String> { [FillProperties.outlineColor.spec.name] }

  /// Colour, opacity and pattern, per vertex when data-driven.
  static let paint: [PaintBinding] = [
    .color(FillProperties.color, "color"), .number(FillProperties.opacity, "opacity"),
    .pattern(FillProperties.pattern, "pattern"),
  ]
  /// The outlines' paint when `fill-outline-color` is set (same shader names and positions).
  static let outlinePaint: [PaintBinding] = [
    .color(FillProperties.outlineColor.unwrapped(default: .black), "color"),
    .number(FillProperties.opacity, "opacity"),
  ]

  static let program = StyleProgram(
    name: "fill", vertexStride: 8, attributes: [VertexAttribute("a_pos", .float2)], paint: paint,
    indexType: .uint32, lineWidth: 2)
  static let outlineProgram = StyleProgram(
    name: "fill_outline", vertexStride: 8, attributes: [VertexAttribute("a_pos", .float2)], paint: paint,
    primitive: .lines, indexType: .uint32, lineWidth: 2)
  /// The viewport in pixels (the outline's antialiasing works in window pixels).
  static let world = UniformSlot<SIMD2<Float>>("u_world")

  /// The outline's paint bindings for `layer`.
  static func outlineBindings(_ layer: StyleLayer) -> [PaintBinding] {
    layer[FillProperties.outlineColor].expression.constantValue != .null ? outlinePaint : paint
  }

  /// Whether `layer` fills with a pattern at style zoom `zoom`.
  static func isPatterned(_ layer: StyleLayer, zoom: Double) -> Bool {
    layer[FillProperties.pattern].isDataDriven || layer.value(FillProperties.pattern, zoom: zoom) != nil
  }

  /// The fill's pipeline and, with antialiasing, the outline's, clipped to tiles or not.
  func fillPipelines(_ layer: StyleLayer, zoom: Double, clipped: Bool, clipPlanes: Bool)
    -> (fill: StylePipeline, outline: StylePipeline?)
  {
    let patterned = FillLayerRenderer.isPatterned(layer, zoom: zoom)
    let fill = StylePipeline(
      program: FillLayerRenderer.program, mask: PaintBinding.mask(FillLayerRenderer.paint, layer: layer),
      switches: patterned ? ["PATTERN"] : [], clipped: clipped, clipPlanes: clipPlanes)
    guard layer.value(FillProperties.antialias, zoom: zoom) else { return (fill, nil) }
    let bindings = FillLayerRenderer.outlineBindings(layer)
    let outlineMask = PaintBinding.mask(bindings, layer: layer)
    let outlinePatterned = patterned && bindings.contains { $0.isPattern }
    return (
      fill,
      StylePipeline(
        program: FillLayerRenderer.outlineProgram, mask: outlineMask, switches: outlinePatterned ? ["PATTERN"] : [],
        clipped: clipped, clipPlanes: clipPlanes)
    )
  }

  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    let (fill, outline) = fillPipelines(
      layer, zoom: context.zoom, clipped: context.clipsWithStencil, clipPlanes: context.clipsByPlanes)
    return context.clipPipelines + [fill] + (outline.map { [$0] } ?? [])
  }

  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry {
    FillBucketBuilder.build(
      tile, layer: layer, zoom: context.zoom, patterns: context.patterns, states: context.states,
      cancellation: context.cancellation)
  }

  /// What planning a fill layer works out from the layer and the zoom alone (kept between
  /// frames in the planner's memo).
  struct Constants: Sendable {
    let translate: (Double, Double)
    let anchoredToViewport: Bool
    let fill: StylePipeline
    let outline: StylePipeline?
    let isPatterned: Bool

    init(_ layer: StyleLayer, planner: StyleFramePlanner, clipPlanes: Bool) {
      (translate, anchoredToViewport) = planner.translation(
        layer, FillProperties.translate, anchor: FillProperties.translateAnchor)
      (fill, outline) = FillLayerRenderer().fillPipelines(
        layer, zoom: planner.zoom, clipped: false, clipPlanes: clipPlanes)
      isPatterned = FillLayerRenderer.isPatterned(layer, zoom: planner.zoom)
    }
  }

  /// A fill layer's paint uniforms, of the fill or of its outline, for buckets of one tile
  /// zoom (kept in the planner's memo).
  struct PaintUniforms: Sendable {
    let values: UniformValues
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    guard let source = layer.source, !tiles.isEmpty else { return }
    let groups = StyleFramePlanner.groups(tiles)
    // Clipping (and so whether the pipelines clip by planes) is set up for the source first.
    planner.clipMasks(source: source, groups: groups)
    let clipPlanes = planner.clipping.clipsByPlanes
    let constants = planner.memo(layer, variant: clipPlanes ? 1 : 0) { [planner] in
      Constants(layer, planner: planner, clipPlanes: clipPlanes)
    }
    let (translate, anchoredToViewport) = (constants.translate, constants.anchoredToViewport)
    let (fill, outline) = (constants.fill, constants.outline)
    // A pattern's atlas uniforms and texture (nothing is drawn when a constant image is missing).
    var patternUniforms = UniformValues()
    var textures: [ResourceKey] = []
    if constants.isPatterned {
      let position = PatternPaint.constantPosition(layer, FillProperties.pattern, planner: planner)
      guard layer[FillProperties.pattern].isDataDriven || position != nil else { return }
      patternUniforms = PatternPaint.atlasUniforms(planner, position: position)
      textures = [PatternPaint.texture(planner)]
    }
    func patternPlacement(_ group: BucketGroup, _ pipeline: StylePipeline) -> UniformValues {
      guard pipeline.switches.contains("PATTERN") else { return UniformValues() }
      return patternUniforms.merging(
        PatternPaint.tileUniforms(
          group.key.dataTile, wrap: group.key.wrap, extent: BucketGeometry.extent, zoom: planner.zoom))
    }
    func matrix(_ group: BucketGroup) -> Mat4 {
      planner.tileMatrix(
        group.key.covered, extent: BucketGeometry.extent, translate: translate, viewportAnchored: anchoredToViewport)
    }
    for group in groups {
      let stencil = planner.stencilReference(group.key)
      let pipeline = fill.clipped(stencil != nil)
      let tileMatrix = matrix(group)
      var uniforms = UniformValues()
      uniforms.set(StyleFramePlanner.matrix, tileMatrix)
      uniforms = uniforms.merging(
        planner.memo(layer, variant: 2 * group.key.zoom) { [planner] in
          PaintUniforms(
            values: planner.paintUniforms(FillLayerRenderer.paint, layer: layer, mask: fill.mask, tile: group.key))
        }.values
      ).merging(patternPlacement(group, pipeline))
      for area in planner.clipAreas(group, translate: translate, viewportAnchored: anchoredToViewport) {
        uniforms.set(StyleFramePlanner.tileClip, area)
        planner.draw(
          pipeline, planner.bucket(layer, group.key), uniforms, textures: pipeline.switches.isEmpty ? [] : textures,
          stencil: stencil,
          cull: CullVolume(matrix: tileMatrix.floats, margin: 0), scissor: planner.scissor(group.key))
      }
    }
    guard let outline else { return }
    let bindings = FillLayerRenderer.outlineBindings(layer)
    let viewport = planner.transform.viewport
    for group in groups {
      let stencil = planner.stencilReference(group.key)
      let pipeline = outline.clipped(stencil != nil)
      let tileMatrix = matrix(group)
      var uniforms = UniformValues()
      uniforms.set(StyleFramePlanner.matrix, tileMatrix)
      uniforms.set(FillLayerRenderer.world, SIMD2(Float(viewport.pixelWidth), Float(viewport.pixelHeight)))
      uniforms = uniforms.merging(
        planner.memo(layer, variant: 2 * group.key.zoom + 1) { [planner] in
          PaintUniforms(values: planner.paintUniforms(bindings, layer: layer, mask: outline.mask, tile: group.key))
        }.values
      ).merging(patternPlacement(group, pipeline))
      for area in planner.clipAreas(group, translate: translate, viewportAnchored: anchoredToViewport) {
        uniforms.set(StyleFramePlanner.tileClip, area)
        planner.draw(
          pipeline, planner.bucket(layer, group.key, .outline), uniforms,
          textures: pipeline.switches.isEmpty ? [] : textures, stencil: stencil,
          cull: CullVolume(matrix: tileMatrix.floats, margin: 0), scissor: planner.scissor(group.key))
      }
    }
  }
}
