import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle

/// `heatmap`: each point's Gaussian kernel (radius in points, weight, times the intensity) is
/// added into a half-float texture a quarter of the frame's size on each side, which is then
/// coloured through the layer's `heatmap-color` ramp and laid over the frame with
/// `heatmap-opacity`, as MapLibre Native draws heatmaps.
struct HeatmapLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .heatmap }
  var buildsBuckets: Bool { true }

  static let paint: [PaintBinding] = [
    .number(HeatmapProperties.weight, "weight"), .number(HeatmapProperties.radius, "radius"),
  ]

  /// The kernels, added up.
  static let kernelProgram = StyleProgram(
    name: "heatmap", vertexStride: 16,
    attributes: [VertexAttribute("a_pos", .float2), VertexAttribute("a_extrude", .float2, offset: 8)],
    paint: paint, indexType: .uint32, blend: .additive)
  /// The densities coloured through the ramp, over the whole frame.
  static let colorProgram = StyleProgram(
    name: "heatmap_texture", vertexStride: 8, attributes: [VertexAttribute("a_position", .float2)],
    primitive: .triangleStrip)

  /// Mesh units per point.
  static let extrudeScale = UniformSlot<Float>("u_extrude_scale")
  static let intensity = UniformSlot<Float>("u_intensity")
  static let image = UniformSlot<Int32>("u_image")
  static let colorRamp = UniformSlot<Int32>("u_color_ramp")
  static let opacity = UniformSlot<Float>("u_opacity")

  /// How many times smaller than the frame (per side) the density texture is (MapLibre Native's
  /// choice: kernels are smooth, so a quarter resolution loses nothing visible).
  static let densityDownscale = 4

  /// The colour ramp of one layer of one style.
  static func rampKey(revision: Int, layer: StyleLayer) -> ResourceKey {
    ResourceKey(ColorRampKey(revision: revision, layer: layer.id, kind: "heatmap"))
  }

  func kernelPipeline(_ layer: StyleLayer) -> StylePipeline {
    StylePipeline(
      program: HeatmapLayerRenderer.kernelProgram, mask: PaintBinding.mask(HeatmapLayerRenderer.paint, layer: layer))
  }

  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    [kernelPipeline(layer), StylePipeline(program: HeatmapLayerRenderer.colorProgram)]
  }

  func buildBucket(_ tile: VectorTile, layer: StyleLayer, context: BucketContext) -> BucketGeometry {
    CircleBucketBuilder.build(
      tile, layer: layer, zoom: context.zoom, bindings: HeatmapLayerRenderer.paint, sortKey: nil,
      states: context.states, cancellation: context.cancellation
    )
  }

  func layerTextures(_ layer: StyleLayer, revision: Int) -> [LayerTexture] {
    [
      LayerTexture(
        key: HeatmapLayerRenderer.rampKey(revision: revision, layer: layer), width: ColorRamp.width, height: 1,
        texels: { HeatmapLayerRenderer.colorRamp(layer) })
    ]
  }

  /// The ramp's texels: `heatmap-color` at densities i/256.
  static func colorRamp(_ layer: StyleLayer) -> [UInt8] {
    ColorRamp.texels(layer[HeatmapProperties.color]) { context, density in context.heatmapDensity = density }
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    let zoom = planner.zoom
    let opacity = min(max(layer.value(HeatmapProperties.opacity, zoom: zoom), 0), 1)
    guard opacity > 0, !tiles.isEmpty else { return }
    let viewport = planner.transform.viewport
    let density = OffscreenTarget(
      name: "heatmap", width: max(viewport.pixelWidth / HeatmapLayerRenderer.densityDownscale, 1),
      height: max(viewport.pixelHeight / HeatmapLayerRenderer.densityDownscale, 1), format: .rgba16Float,
      clearColor: Color(red: 0, green: 0, blue: 0, alpha: 1))
    planner.frame.switchTarget(.translucent, to: density)
    let kernel = kernelPipeline(layer)
    let intensity = Float(layer.value(HeatmapProperties.intensity, zoom: zoom))
    for group in StyleFramePlanner.groups(tiles) {
      let tile = group.key
      let tileWorldSize = planner.transform.worldSize / Double(tile.dataTile.tilesPerSide)
      var uniforms = UniformValues()
      uniforms.set(StyleFramePlanner.matrix, planner.tileMatrix(tile.covered, extent: BucketGeometry.extent))
      uniforms.set(HeatmapLayerRenderer.extrudeScale, Float(BucketGeometry.extent / tileWorldSize))
      uniforms.set(HeatmapLayerRenderer.intensity, intensity)
      uniforms = uniforms.merging(
        planner.paintUniforms(HeatmapLayerRenderer.paint, layer: layer, mask: kernel.mask, tile: tile))
      planner.draw(kernel, planner.bucket(layer, tile), uniforms)
    }
    planner.frame.switchTarget(.translucent, to: nil)
    var uniforms = UniformValues()
    uniforms.set(HeatmapLayerRenderer.image, 0)
    uniforms.set(HeatmapLayerRenderer.colorRamp, 1)
    uniforms.set(HeatmapLayerRenderer.opacity, Float(opacity))
    let ramp = HeatmapLayerRenderer.rampKey(revision: planner.input.revision, layer: layer)
    planner.draw(
      StylePipeline(program: HeatmapLayerRenderer.colorProgram), .builtin(.unitQuadStrip), uniforms,
      textures: [density.resourceKey, ramp])
  }
}
