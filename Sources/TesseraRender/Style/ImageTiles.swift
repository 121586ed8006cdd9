import TesseraGeo
import TesseraNumbers

extension StyleFramePlanner {
  /// Where an image tile's square lies in its texture: x, y offset, width, height scale (0…1).
  static let textureRect = UniformSlot<SIMD4<Float>>("u_texture_rect")

  /// The uniforms of an image tile's square (rasters, hillshade: the shared `raster` vertex
  /// stage): its matrix, pixel-aligned as MapLibre aligns images, and its texture rectangle.
  func imageTileUniforms(_ tile: RenderTile) -> UniformValues {
    let rect = tile.textureRect
    var uniforms = UniformValues()
    uniforms.set(StyleFramePlanner.matrix, tileMatrix(tile.covered, extent: 1, pixelAligned: true))
    uniforms.set(
      StyleFramePlanner.textureRect, SIMD4(Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height)))
    return uniforms
  }
}
