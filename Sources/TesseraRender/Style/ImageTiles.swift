import TesseraGeo
import TesseraNumbers

extension StyleFramePlanner {
  /// Where an image tile's square lies in its texture: x, y offset, width, height scale (0…1).
  static let textureRect = UniformSlot<SIMD4<Float>>("u_texture_rect")

  /// The uniforms of an image tile's square (rasters, hillshade: the shared `raster` vertex
  /// stage): its matrix, pixel-aligned as MapLibre aligns images, and its texture rectangle.
  func imageTileUniforms(_ tile: RenderTile) -> UniformValues {
    imageTileUniforms(tile, matrix: tileMatrix(tile.covered, extent: 1, pixelAligned: true))
  }

  /// ``imageTileUniforms(_:)`` with the tile's pixel-aligned matrix made already.
  func imageTileUniforms(_ tile: RenderTile, matrix: Mat4) -> UniformValues {
    let rect = tile.textureRect
    var uniforms = UniformValues()
    uniforms.set(StyleFramePlanner.matrix, matrix)
    uniforms.set(
      StyleFramePlanner.textureRect, SIMD4(Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height)))
    return uniforms
  }
}

/// Whether an image tile lies one texel a pixel, texel edges on pixel edges: then every
/// pixel's centre is a texel's centre, where the bilinear filter returns that texel, so the
/// draw may sample the nearest texel instead (on llvmpipe about 12% less rasterising for a
/// frame of raster tiles, the same bytes).
enum ImageTexels {
  /// How far (pixels) a tile's edge may lie from a whole pixel, or its size from its image's,
  /// and still count as on pixels: far below the bilinear filter's weight resolution.
  static let tolerance = 1e-6

  /// Whether `tile`, drawn with `matrix` (its unit square to clip space) into `viewport`,
  /// has its whole image (no overzoom) on pixels as above, with no rotation or tilt.
  static func lieOnPixels(_ tile: RenderTile, matrix: Mat4, viewport: Viewport) -> Bool {
    guard case .raster(let image) = tile.content, tile.textureRect == (0, 0, 1, 1) else { return false }
    return lieOnPixels(
      matrix: matrix, texels: (image.width, image.height),
      pixels: (Double(viewport.pixelWidth), Double(viewport.pixelHeight)))
  }

  /// Whether `matrix` maps the unit square onto a `texels`-sized block of whole pixels of a
  /// `pixels`-sized frame, axis-aligned and untilted (w the same at every corner).
  static func lieOnPixels(matrix m: Mat4, texels: (width: Int, height: Int), pixels: (width: Double, height: Double))
    -> Bool
  {
    // Rotation or tilt: clip x must not depend on the tile's y, nor y on x, nor w on either.
    guard m[0, 1] == 0, m[1, 0] == 0, m[3, 0] == 0, m[3, 1] == 0, m[3, 3] > 0 else { return false }
    let w = m[3, 3]
    // Clip x and y in −1…1 to pixels from the frame's edges (which edge does not change
    // whether a position is whole: the frame's size is).
    let left = (m[0, 3] / w + 1) / 2 * pixels.width
    let width = abs(m[0, 0] / w / 2 * pixels.width)
    let top = (1 - m[1, 3] / w) / 2 * pixels.height
    let height = abs(m[1, 1] / w / 2 * pixels.height)
    func whole(_ value: Double) -> Bool { abs(value - value.rounded()) <= tolerance }
    return whole(left) && whole(top) && abs(width - Double(texels.width)) <= tolerance
      && abs(height - Double(texels.height)) <= tolerance
  }
}
