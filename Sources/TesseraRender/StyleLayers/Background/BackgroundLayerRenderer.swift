import TesseraGL
import TesseraImage
import TesseraStyle

/// `background`: the colour over the whole view (patterns are not drawn).
struct BackgroundLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .background }

  static let program = StyleProgram(
    name: "background", vertexStride: 8, attributes: [VertexAttribute("a_position", .float2)])
  static let color = UniformSlot<Color>("u_color")
  static let opacity = UniformSlot<Float>("u_opacity")

  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    [StylePipeline(program: BackgroundLayerRenderer.program)]
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    let color = layer.value(BackgroundProperties.color, zoom: planner.zoom)
    let opacity = layer.value(BackgroundProperties.opacity, zoom: planner.zoom)
    guard opacity > 0, color.alpha > 0 else { return }
    var uniforms = UniformValues()
    uniforms.set(BackgroundLayerRenderer.color, color)
    uniforms.set(BackgroundLayerRenderer.opacity, Float(opacity))
    planner.draw(
      pipelines(layer, PipelineContext(zoom: planner.zoom, clipsWithStencil: false))[0],
      .builtin(.fullScreenTriangle), uniforms)
  }

  func opaqueColor(_ layer: StyleLayer, zoom: Double) -> Color? {
    let color = layer.value(BackgroundProperties.color, zoom: zoom)
    let opacity = layer.value(BackgroundProperties.opacity, zoom: zoom)
    return color.alpha >= 1 && opacity >= 1 ? color : nil
  }
}
