import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// `raster`: each tile's image on its square (a part of an ancestor's image when the tile is
/// overzoomed or fell back), with MapLibre's hue, saturation, contrast and brightness paint.
struct RasterLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .raster }

  /// A tile's square with its image (shared with hillshade).
  static let program = StyleProgram(
    name: "raster", vertexStride: 12, attributes: [VertexAttribute("a_position", .float2)])
  /// An image source's picture on its four corners (a triangle strip over the unit square's
  /// corners, split along the top-right to bottom-left diagonal as MapLibre splits it).
  static let quadProgram = StyleProgram(
    name: "raster", vertexStride: 8, attributes: [VertexAttribute("a_position", .float2)], primitive: .triangleStrip)
  /// The quad's top left and top right corners, and its bottom left and bottom right, in tile units.
  static let quadTop = UniformSlot<SIMD4<Float>>("u_quad_top")
  static let quadBottom = UniformSlot<SIMD4<Float>>("u_quad_bottom")
  static let image = UniformSlot<Int32>("u_image")
  static let opacity = UniformSlot<Float>("u_opacity")
  static let brightnessLow = UniformSlot<Float>("u_brightness_low")
  static let brightnessHigh = UniformSlot<Float>("u_brightness_high")
  static let saturationFactor = UniformSlot<Float>("u_saturation_factor")
  static let contrastFactor = UniformSlot<Float>("u_contrast_factor")
  static let spinWeights = UniformSlot<SIMD3<Float>>("u_spin_weights")

  /// The texture of a tile's decoded image (premultiplied), by source and data tile.
  struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    let source: String
    let tile: TileID
    var description: String { "raster \(source) \(tile)" }
  }

  /// The program variant: nearest-texel sampling (`raster-resampling: nearest`, or a tile lying
  /// one texel a pixel, where the nearest texel is the bilinear filter's value for less
  /// work), and the plain one when every colour paint property is at its default.
  func rasterPipeline(_ layer: StyleLayer, zoom: Double, quad: Bool = false, texelsOnPixels: Bool = false)
    -> StylePipeline
  {
    let value = { (property: StyleProperty<Double>) in layer.value(property, zoom: zoom) }
    let plain =
      value(RasterProperties.hueRotate) == 0 && value(RasterProperties.saturation) == 0
      && value(RasterProperties.contrast) == 0 && value(RasterProperties.brightnessMin) == 0
      && value(RasterProperties.brightnessMax) == 1
    let nearest = texelsOnPixels || layer.value(RasterProperties.resampling, zoom: zoom) == .nearest
    return StylePipeline(
      program: quad ? RasterLayerRenderer.quadProgram : RasterLayerRenderer.program,
      switches: (nearest ? ["NEAREST"] : []) + (plain ? ["PLAIN"] : []) + (quad ? ["QUAD"] : []))
  }

  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] {
    let quad = layer.source.map(context.imageSources.contains) ?? false
    return [rasterPipeline(layer, zoom: context.zoom, quad: quad, texelsOnPixels: !quad && context.isFlatAtWholeZoom)]
  }

  func uploadTextures(_ tiles: [RenderTile], source: RenderSource, uploader: inout TileTextureUploader)
    throws(GLError) -> [TileID: ResourceKey]
  {
    var keys: [TileID: ResourceKey] = [:]
    for tile in tiles {
      guard case .raster(let image) = tile.content else { continue }
      let key = ResourceKey(ImageKey(source: source.id, tile: tile.dataTile))
      keys[tile.dataTile] = key
      try uploader.upload(key, width: image.width, height: image.height) { image.premultipliedAlpha().pixels }
    }
    return keys
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    let zoom = planner.zoom
    let opacity = layer.value(RasterProperties.opacity, zoom: zoom)
    guard opacity > 0 else { return }
    let hue = layer.value(RasterProperties.hueRotate, zoom: zoom) * .pi / 180
    let saturation = layer.value(RasterProperties.saturation, zoom: zoom)
    let contrast = layer.value(RasterProperties.contrast, zoom: zoom)
    let (s, c) = (sin(hue), cos(hue))
    let spin = (
      (2 * c + 1) / 3, (-(3.0).squareRoot() * s - c + 1) / 3, ((3.0).squareRoot() * s - c + 1) / 3
    )
    var paint = UniformValues()
    paint.set(RasterLayerRenderer.image, 0)
    paint.set(RasterLayerRenderer.opacity, Float(opacity))
    paint.set(RasterLayerRenderer.brightnessLow, Float(layer.value(RasterProperties.brightnessMin, zoom: zoom)))
    paint.set(RasterLayerRenderer.brightnessHigh, Float(layer.value(RasterProperties.brightnessMax, zoom: zoom)))
    paint.set(
      RasterLayerRenderer.saturationFactor, Float(saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation))
    paint.set(RasterLayerRenderer.contrastFactor, Float(contrast > 0 ? 1 / (1 - contrast) : 1 + contrast))
    paint.set(RasterLayerRenderer.spinWeights, SIMD3(Float(spin.0), Float(spin.1), Float(spin.2)))
    let pipeline = rasterPipeline(layer, zoom: zoom)
    let texelsOnPixels = rasterPipeline(layer, zoom: zoom, texelsOnPixels: true)
    for tile in tiles {
      guard let texture = planner.texture(layer, tile) else { continue }
      if let quad = tile.quad {
        var uniforms = paint
        uniforms.set(StyleFramePlanner.matrix, planner.tileMatrix(tile.covered, extent: 1, pixelAligned: true))
        let c = quad.corners.map { SIMD2<Float>(Float($0.x), Float($0.y)) }
        uniforms.set(RasterLayerRenderer.quadTop, SIMD4(c[0].x, c[0].y, c[1].x, c[1].y))
        uniforms.set(RasterLayerRenderer.quadBottom, SIMD4(c[3].x, c[3].y, c[2].x, c[2].y))
        planner.draw(
          rasterPipeline(layer, zoom: zoom, quad: true), .builtin(.unitQuadStrip), uniforms, textures: [texture])
        continue
      }
      let matrix = planner.tileMatrix(tile.covered, extent: 1, pixelAligned: true)
      var uniforms = planner.imageTileUniforms(tile, matrix: matrix)
      uniforms = uniforms.merging(paint)
      let onPixels = ImageTexels.lieOnPixels(tile, matrix: matrix, viewport: planner.input.transform.viewport)
      planner.draw(onPixels ? texelsOnPixels : pipeline, .builtin(.unitSquare), uniforms, textures: [texture])
    }
  }
}
