import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraStyle

/// A background layer marked `"metadata": {"tessera:within-world": true}` (the built-in map
/// types' land) covers the world's copies only: past the poles the frame's clear colour shows.
package enum BackgroundWithinWorld {
  package static let metadataKey = "tessera:within-world"

  /// Whether `layer` is marked so.
  static func applies(to layer: StyleLayer) -> Bool {
    layer.definition["metadata"]?[metadataKey] == .bool(true)
  }

  /// Whether `transform` shows ground past the poles: a corner of the view lies above the
  /// world's top or below its bottom (or above the horizon, where the sky is drawn).
  package static func showsPastPoles(_ transform: CameraTransform) -> Bool {
    let viewport = transform.viewport
    for x in [0.0, viewport.width] {
      for y in [0.0, viewport.height] {
        guard let world = transform.worldPoint(for: ScreenPoint(x: x, y: y)) else { return true }
        if world.y < 0 || world.y > transform.worldSize { return true }
      }
    }
    return false
  }
}

/// `background`: the colour over the whole view, or with `background-pattern` a sprite image
/// repeated over it (drawn over the tiles of the integer zoom that cover the view).
struct BackgroundLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .background }

  static let program = StyleProgram(
    name: "background", vertexStride: 8, attributes: [VertexAttribute("a_position", .float2)])
  /// The pattern over a tile's square (the unit square mesh: three floats per vertex).
  static let patternProgram = StyleProgram(
    name: "background_pattern", vertexStride: 12, attributes: [VertexAttribute("a_position", .float2)])
  /// The colour over each copy of the world (the unit square mesh of the zoom-0 tile).
  static let worldProgram = StyleProgram(
    name: "background_world", vertexStride: 12, attributes: [VertexAttribute("a_position", .float2)])
  static let color = UniformSlot<Color>("u_color")
  static let opacity = UniformSlot<Float>("u_opacity")

  /// The most tiles a patterned background is drawn over.
  static let maximumPatternTiles = 4096

  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    let patterned = layer.value(BackgroundProperties.pattern, zoom: context.zoom) != nil
    if !patterned, context.showsPastPoles, BackgroundWithinWorld.applies(to: layer) {
      return [StylePipeline(program: BackgroundLayerRenderer.worldProgram)]
    }
    return [
      StylePipeline(program: patterned ? BackgroundLayerRenderer.patternProgram : BackgroundLayerRenderer.program)
    ]
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    let opacity = layer.value(BackgroundProperties.opacity, zoom: planner.zoom)
    var context = PipelineContext(zoom: planner.zoom, clipsWithStencil: false)
    context.showsPastPoles = BackgroundWithinWorld.showsPastPoles(planner.transform)
    let pipeline = pipelines(layer, context)[0]
    if layer.value(BackgroundProperties.pattern, zoom: planner.zoom) != nil {
      planPattern(layer, opacity: opacity, pipeline: pipeline, planner: &planner)
      return
    }
    let color = layer.value(BackgroundProperties.color, zoom: planner.zoom)
    guard opacity > 0, color.alpha > 0 else { return }
    var uniforms = UniformValues()
    uniforms.set(BackgroundLayerRenderer.color, color)
    uniforms.set(BackgroundLayerRenderer.opacity, Float(opacity))
    if context.showsPastPoles, BackgroundWithinWorld.applies(to: layer) {
      planWorld(uniforms, pipeline: pipeline, planner: &planner)
      return
    }
    planner.draw(pipeline, .builtin(.fullScreenTriangle), uniforms)
  }

  /// The colour over each copy of the world in view: the zoom-0 tile of every wrap.
  private func planWorld(_ shared: UniformValues, pipeline: StylePipeline, planner: inout StyleFramePlanner) {
    var covering = TileCovering(
      tileSize: 512, minZoom: 0, maxZoom: 0, maxDistanceFactor: 64,
      maxTiles: BackgroundLayerRenderer.maximumPatternTiles)
    covering.lodDistanceFactor = .infinity
    for covered in covering.tiles(for: planner.transform) {
      var uniforms = shared
      uniforms.set(StyleFramePlanner.matrix, planner.tileMatrix(covered, extent: 1))
      planner.draw(pipeline, .builtin(.unitSquare), uniforms)
    }
  }

  /// The pattern over each tile of the integer zoom in view (nothing when the image is missing).
  private func planPattern(
    _ layer: StyleLayer, opacity: Double, pipeline: StylePipeline, planner: inout StyleFramePlanner
  ) {
    guard opacity > 0,
      let position = PatternPaint.constantPosition(layer, BackgroundProperties.pattern, planner: planner)
    else { return }
    let zoom = Int(clamping: max(0, planner.zoom.rounded(.down)))
    var covering = TileCovering(
      tileSize: 512, minZoom: zoom, maxZoom: zoom, maxDistanceFactor: 64,
      maxTiles: BackgroundLayerRenderer.maximumPatternTiles)
    covering.lodDistanceFactor = .infinity
    var shared = PatternPaint.atlasUniforms(planner, position: position)
    shared.set(BackgroundLayerRenderer.opacity, Float(opacity))
    let texture = PatternPaint.texture(planner)
    for covered in covering.tiles(for: planner.transform) {
      var uniforms = shared.merging(
        PatternPaint.tileUniforms(covered.tile, wrap: covered.wrap, extent: 1, zoom: planner.zoom))
      uniforms.set(StyleFramePlanner.matrix, planner.tileMatrix(covered, extent: 1))
      planner.draw(pipeline, .builtin(.unitSquare), uniforms, textures: [texture])
    }
  }

  func opaqueColor(_ layer: StyleLayer, zoom: Double) -> Color? {
    guard layer.value(BackgroundProperties.pattern, zoom: zoom) == nil else { return nil }
    let color = layer.value(BackgroundProperties.color, zoom: zoom)
    let opacity = layer.value(BackgroundProperties.opacity, zoom: zoom)
    return color.alpha >= 1 && opacity >= 1 ? color : nil
  }
}
