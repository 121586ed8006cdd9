import Foundation
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// The uniforms shared by pattern paint (`background-pattern`, `fill-pattern`,
/// `line-pattern`; the programs' `PATTERN` variants): the style's atlas, the image's place in
/// it, and where a tile lies in the repeating pattern.
///
/// As in MapLibre, patterns are measured in points at the integer zoom (`floor(zoom)`): a
/// repeat is the image's size in points there and grows with the map up to the next integer
/// zoom; repeats are aligned to the world's origin, so they run on across tiles. Still frames
/// show the current zoom's image only (MapLibre's cross-fade between the images of adjacent
/// zooms has finished).
enum PatternPaint {
  static let image = UniformSlot<Int32>("u_image")
  /// The atlas size, pixels.
  static let textureSize = UniformSlot<SIMD2<Float>>("u_texsize")
  /// The image's corners in the atlas (when constant over the layer).
  static let corners = UniformSlot<SIMD4<Float>>("u_pattern")
  /// The image's pixels per point (when constant over the layer).
  static let pixelRatio = UniformSlot<Float>("u_pattern_ratio")
  /// The image's size in points (background).
  static let size = UniformSlot<SIMD2<Float>>("u_pattern_size")
  static let pixelCoordUpper = UniformSlot<SIMD2<Float>>("u_pixel_coord_upper")
  static let pixelCoordLower = UniformSlot<SIMD2<Float>>("u_pixel_coord_lower")
  /// Points at the integer zoom per tile unit.
  static let tileRatio = UniformSlot<Float>("u_tile_ratio")

  /// The atlas texture of a frame's style.
  static func texture(_ planner: StyleFramePlanner) -> ResourceKey {
    ResourceKey(PatternAtlasKey(revision: planner.input.revision))
  }

  /// The atlas place of the image a constant pattern property names at the frame's zoom; nil
  /// when it names none or an image the style's sprites lack (nothing is drawn then).
  static func constantPosition(_ layer: StyleLayer, _ property: StyleProperty<String?>, planner: StyleFramePlanner)
    -> PatternAtlas.Position?
  {
    guard let name = layer.value(property, zoom: planner.zoom) else { return nil }
    return planner.input.patterns.positions[name]
  }

  /// The atlas uniforms, and the image's when `position` is given (a constant pattern).
  static func atlasUniforms(_ planner: StyleFramePlanner, position: PatternAtlas.Position?) -> UniformValues {
    var uniforms = UniformValues()
    uniforms.set(image, 0)
    let atlas = planner.input.patterns
    uniforms.set(textureSize, SIMD2(Float(atlas.width), Float(atlas.height)))
    if let position {
      uniforms.set(corners, position.corners)
      uniforms.set(pixelRatio, position.pixelRatio)
      let extent = position.bottomRight - position.topLeft
      uniforms.set(size, extent / position.pixelRatio)
    }
    return uniforms
  }

  /// Where `tile` (in world copy `wrap`, its geometry `extent` units per side) lies in the
  /// pattern at style zoom `zoom`: its origin in points at the integer zoom, split in halves
  /// of 16 bits, and points per tile unit.
  static func tileUniforms(_ tile: TileID, wrap: Int, extent: Double, zoom: Double) -> UniformValues {
    let integerZoom = max(0, floor(zoom))
    let tileSize = 512 * pow(2, integerZoom - Double(tile.z))
    let tiles = Double(tile.tilesPerSide)
    let x = (tileSize * (Double(tile.x) + Double(wrap) * tiles)).clamped(to: -0x1p52...0x1p52)
    let y = (tileSize * Double(tile.y)).clamped(to: -0x1p52...0x1p52)
    let (pixelX, pixelY) = (Int64(clamping: x.rounded(.down)), Int64(clamping: y.rounded(.down)))
    var uniforms = UniformValues()
    uniforms.set(pixelCoordUpper, SIMD2(Float(pixelX >> 16), Float(pixelY >> 16)))
    uniforms.set(pixelCoordLower, SIMD2(Float(pixelX & 0xFFFF), Float(pixelY & 0xFFFF)))
    uniforms.set(tileRatio, Float(tileSize / extent))
    return uniforms
  }
}

extension Double {
  /// The value limited to `range` (NaN becomes the lower bound).
  fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
    guard !isNaN else { return range.lowerBound }
    return Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
