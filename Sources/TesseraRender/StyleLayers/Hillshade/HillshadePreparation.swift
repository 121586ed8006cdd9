import Foundation
import TesseraData
import TesseraNumbers

/// Terrain slopes of a DEM tile, computed as MapLibre Native's hillshade "prepare" pass does:
/// a 3×3 Sobel kernel over elevations (÷4) scaled by the tile's ground resolution, exaggerated
/// by 2^(0.3·(source max zoom − zoom)) (0.35 below zoom 4.5, 0.4 below 2) so relief stays
/// visible on coarser tiles, stored in the red (east–west) and green (north–south) channels of
/// an RGBA8 texture as 128 + d · 127.5 rounded (the shader reads back (byte − 128) / 127.5).
/// MapLibre stores d / 2 + 0.5, where no byte means exactly 0; with 128 meaning 0, flat ground
/// shades to nothing at all, so a draw may leave it out (``TextureOccupancy``) and the
/// other slopes move by under half a step of the byte.
///
/// The kernel reads one pixel beyond each edge: from the neighbouring tile when it is loaded
/// (so tiles join without seams), else the nearest edge pixel of the tile itself.
enum HillshadePreparation {
  /// The eight neighbours as (dx, dy) tile offsets; bit i of a neighbour mask is offset i.
  static let neighbourOffsets: [(dx: Int, dy: Int)] = [
    (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1),
  ]

  /// The slope texture (width × height × 4 bytes) of `dem` at tile zoom `zoom` of a source whose
  /// deepest tiles are at `maxZoom`; `neighbours` holds the eight neighbours in
  /// ``neighbourOffsets`` order (nil when missing or of another size).
  static func prepare(_ dem: DEMTile, neighbours: [DEMTile?], zoom: Int, maxZoom: Int) -> [UInt8] {
    prepareWithOccupancy(dem, neighbours: neighbours, zoom: zoom, maxZoom: maxZoom).pixels
  }

  /// Texels per side of the cells of a slope texture's occupancy: small enough to follow a
  /// coast, large enough that a tile needs a few hundred rectangles at most.
  static let occupancyCell = 8

  /// The slope texture and which of its cells hold any slope (flat ground, 128 in both
  /// channels, shades to nothing).
  static func prepareWithOccupancy(_ dem: DEMTile, neighbours: [DEMTile?], zoom: Int, maxZoom: Int) -> (
    pixels: [UInt8], occupancy: TextureOccupancy
  ) {
    let width = dem.width
    let height = dem.height
    let usable = neighbours.map { $0.flatMap { $0.width == width && $0.height == height ? $0 : nil } }
    /// Elevation ÷ 4 at (x, y), x in −1...width, y in −1...height.
    func elevation(_ x: Int, _ y: Int) -> Double {
      if x >= 0, x < width, y >= 0, y < height { return Double(dem.heights[y * width + x]) / 4 }
      let dx = x < 0 ? -1 : (x >= width ? 1 : 0)
      let dy = y < 0 ? -1 : (y >= height ? 1 : 0)
      let index = neighbourOffsets.firstIndex { $0.dx == dx && $0.dy == dy }!
      if let neighbour = usable[index] {
        return Double(neighbour.heights[((y + height) % height) * width + (x + width) % width]) / 4
      }
      return Double(dem.height(x: x, y: y)) / 4
    }
    // Every elevation the kernel reads, once: the tile with a one-pixel border, row by row; the
    // tile's own rows copied straight, the border through the edge rules.
    let paddedWidth = width + 2
    var padded = [Double](repeating: 0, count: paddedWidth * (height + 2))
    padded.withUnsafeMutableBufferPointer { grid in
      dem.heights.withUnsafeBufferPointer { heights in
        for y in 0..<height {
          let source = y * width
          let target = (y + 1) * paddedWidth + 1
          for x in 0..<width { grid[target + x] = Double(heights[source + x]) / 4 }
        }
      }
      for x in -1...width {
        grid[x + 1] = elevation(x, -1)
        grid[(height + 1) * paddedWidth + x + 1] = elevation(x, height)
      }
      for y in 0..<height {
        grid[(y + 1) * paddedWidth] = elevation(-1, y)
        grid[(y + 1) * paddedWidth + width + 1] = elevation(width, y)
      }
    }
    let z = Double(zoom)
    let factor = z < 2 ? 0.4 : (z < 4.5 ? 0.35 : 0.3)
    let exaggeration = (z - Double(maxZoom)) * factor
    let divisor = pow(2, exaggeration + 19.2562 - z)
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    padded.withUnsafeBufferPointer { grid in
      pixels.withUnsafeMutableBufferPointer { out in
        for y in 0..<height {
          // The rows above, at and below row y, each starting at column −1.
          let above = y * paddedWidth
          let row = above + paddedWidth
          let below = row + paddedWidth
          for x in 0..<width {
            let a = grid[above + x]
            let b = grid[above + x + 1]
            let c = grid[above + x + 2]
            let d = grid[row + x]
            let f = grid[row + x + 2]
            let g = grid[below + x]
            let h = grid[below + x + 1]
            let i = grid[below + x + 2]
            let derivativeX = ((c + f + f + i) - (a + d + d + g)) / divisor
            let derivativeY = ((g + h + h + i) - (a + b + b + c)) / divisor
            let offset = (y * width + x) * 4
            out[offset] = encode(derivativeX)
            out[offset + 1] = encode(derivativeY)
          }
        }
      }
    }
    let occupancy = TextureOccupancy(width: width, height: height, cellSize: occupancyCell) { x, y in
      pixels[(y * width + x) * 4] == flat && pixels[(y * width + x) * 4 + 1] == flat
    }
    return (pixels, occupancy)
  }

  /// The byte of a derivative of 0.
  static let flat: UInt8 = 128

  /// The byte of a derivative: 128 + d · 127.5 rounded (halves away from zero), within 0…255;
  /// 128 for NaN. Two per texel of every DEM tile drawn, so worked out without calls into the C
  /// library (`rounded()` is one on x86-64's baseline).
  static func encode(_ derivative: Double) -> UInt8 {
    let scaled = derivative * 127.5
    // Rounded, 128 + scaled is 0 from −127.5 down and 255 from 126.5 up.
    guard scaled > -127.5 else { return scaled.isNaN ? flat : 0 }
    guard scaled < 126.5 else { return 255 }
    // |scaled| + 2^52 is a Double whose fraction bits hold |scaled| rounded to the nearest
    // integer, halves to even; a half rounded down to even goes up instead.
    let magnitude = scaled.magnitude
    let shifted = magnitude + 4_503_599_627_370_496
    var rounded = Int(truncatingIfNeeded: shifted.bitPattern &- Double(4_503_599_627_370_496).bitPattern)
    if Double(rounded) - magnitude == -0.5 { rounded += 1 }
    return UInt8(truncatingIfNeeded: Int(flat) + (scaled < 0 ? -rounded : rounded))
  }
}
