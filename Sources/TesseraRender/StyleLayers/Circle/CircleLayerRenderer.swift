import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// `circle`: a quad per point, facing the screen (`circle-pitch-alignment` viewport) or lying
/// on the map, sized in points or with the map's perspective (`circle-pitch-scale`). Points
/// belong to one tile only, so circles are clipped only where overzoomed tiles share an
/// ancestor's points.
struct CircleLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .circle }
  var buildsBuckets: Bool { true }

  static let paint: [PaintBinding] = [
    .color(CircleProperties.color, "color"), .number(CircleProperties.radius, "radius"),
    .number(CircleProperties.blur, "blur"), .number(CircleProperties.opacity, "opacity"),
    .color(CircleProperties.strokeColor, "stroke_color"), .number(CircleProperties.strokeWidth, "stroke_width"),
    .number(CircleProperties.strokeOpacity, "stroke_opacity"),
  ]

  static let program = StyleProgram(
    name: "circle", vertexStride: 16,
    attributes: [VertexAttribute("a_pos", .float2), VertexAttribute("a_extrude", .float2, offset: 8)],
    paint: paint, indexType: .uint32)
  static let scaleWithMap = UniformSlot<Bool>("u_scale_with_map")
  static let pitchWithMap = UniformSlot<Bool>("u_pitch_with_map")
  /// Tile units per point (on the map) or clip units per point (facing the screen).
  static let extrudeScale = UniformSlot<SIMD2<Float>>("u_extrude_scale")
  /// Points.
  static let cameraToCenterDistance = UniformSlot<Float>("u_camera_to_center_distance")
  static let devicePixelRatio = UniformSlot<Float>("u_device_pixel_ratio")

  /// The circles' pipeline, clipped (overzoomed tiles sharing points) or not.
  func circlePipeline(_ layer: StyleLayer, clipped: Bool) -> StylePipeline {
    StylePipeline(
      program: CircleLayerRenderer.program, mask: PaintBinding.mask(CircleLayerRenderer.paint, layer: layer),
      clipped: clipped)
  }

  /// Tiles are seldom overzoomed when a frame starts: predicted unclipped.
  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    [circlePipeline(layer, clipped: false)]
  }

  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry {
    CircleBucketBuilder.build(
      tile, layer: layer, zoom: context.zoom, states: context.states, cancellation: context.cancellation)
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    guard !tiles.isEmpty else { return }
    let zoom = planner.zoom
    let transform = planner.transform
    let (translate, anchoredToViewport) = planner.translation(
      layer, CircleProperties.translate, anchor: CircleProperties.translateAnchor)
    let pitchWithMap = layer.value(CircleProperties.pitchAlignment, zoom: zoom) == .map
    let scaleWithMap = layer.value(CircleProperties.pitchScale, zoom: zoom) != .viewport
    let groups = StyleFramePlanner.groups(tiles)
    let overzoomed = groups.contains { $0.key.zoom > $0.key.dataTile.z }
    if overzoomed, let source = layer.source { planner.clipMasks(source: source, groups: groups) }
    let circle = circlePipeline(layer, clipped: false)
    for group in groups {
      let tile = group.key
      let stencil = overzoomed ? planner.stencilReference(tile) : nil
      let pipeline = circle.clipped(stencil != nil)
      let tileWorldSize = transform.worldSize / Double(tile.dataTile.tilesPerSide)
      let extrudeScale =
        pitchWithMap
        ? SIMD2(Float(BucketGeometry.extent / tileWorldSize), Float(BucketGeometry.extent / tileWorldSize))
        : SIMD2(Float(2 / transform.viewport.width), Float(-2 / transform.viewport.height))
      var uniforms = UniformValues()
      uniforms.set(
        StyleFramePlanner.matrix,
        planner.tileMatrix(
          tile.covered, extent: BucketGeometry.extent, translate: translate, viewportAnchored: anchoredToViewport))
      uniforms.set(CircleLayerRenderer.scaleWithMap, scaleWithMap)
      uniforms.set(CircleLayerRenderer.pitchWithMap, pitchWithMap)
      uniforms.set(CircleLayerRenderer.extrudeScale, extrudeScale)
      uniforms.set(CircleLayerRenderer.cameraToCenterDistance, Float(transform.cameraDistance))
      uniforms.set(CircleLayerRenderer.devicePixelRatio, Float(planner.pixelRatio))
      uniforms = uniforms.merging(
        planner.paintUniforms(CircleLayerRenderer.paint, layer: layer, mask: pipeline.mask, tile: tile))
      planner.draw(
        pipeline, planner.bucket(layer, tile), uniforms, stencil: stencil, scissor: planner.scissor(tile))
    }
  }
}
