import TesseraGeo
import Testing

@testable import TesseraRender

/// When an image tile lies one texel a pixel, so its draw may sample the nearest texel.
@Suite struct ImageTexelsTests {
  /// The matrix that draws the unit square as the block `size` pixels wide and tall whose
  /// top-left corner is at (`left`, `top`) in a `frame`-sized frame, times `w`.
  static func block(left: Double, top: Double, size: Double, frame: (Double, Double), w: Double = 1) -> Mat4 {
    let (width, height) = frame
    let rows = [
      [2 * size / width, 0, 0, 2 * left / width - 1], [0, -2 * size / height, 0, 1 - 2 * top / height],
      [0, 0, 1, 0], [0, 0, 0, 1],
    ]
    return Mat4(rows: rows.map { $0.map { $0 * w } })
  }

  static let frame = (512.0, 384.0)

  @Test func aWholePixelBlockOfTheImagesSizeLiesOnPixels() {
    for (left, top, w) in [(0.0, 0.0, 1.0), (-256.0, 128.0, 1.0), (37.0, -5.0, 2.5)] {
      let matrix = Self.block(left: left, top: top, size: 256, frame: Self.frame, w: w)
      #expect(ImageTexels.lieOnPixels(matrix: matrix, texels: (256, 256), pixels: Self.frame), "at \(left), \(top)")
    }
  }

  @Test func offPixelsScaledTurnedOrTiltedBlocksDoNot() {
    let aligned = Self.block(left: 0, top: 0, size: 256, frame: Self.frame)
    #expect(
      !ImageTexels.lieOnPixels(
        matrix: Self.block(left: 0.5, top: 0, size: 256, frame: Self.frame),
        texels: (256, 256), pixels: Self.frame), "half a pixel right")
    #expect(
      !ImageTexels.lieOnPixels(
        matrix: Self.block(left: 0, top: 0.25, size: 256, frame: Self.frame),
        texels: (256, 256), pixels: Self.frame), "a quarter pixel down")
    #expect(
      !ImageTexels.lieOnPixels(
        matrix: Self.block(left: 0, top: 0, size: 512, frame: Self.frame),
        texels: (256, 256), pixels: Self.frame), "overzoomed: two pixels a texel")
    #expect(!ImageTexels.lieOnPixels(matrix: aligned, texels: (512, 512), pixels: Self.frame), "a larger image")
    var turned = aligned
    turned[0, 1] = 0.01
    #expect(!ImageTexels.lieOnPixels(matrix: turned, texels: (256, 256), pixels: Self.frame), "rotated")
    var tilted = aligned
    tilted[3, 1] = 0.001
    #expect(!ImageTexels.lieOnPixels(matrix: tilted, texels: (256, 256), pixels: Self.frame), "tilted")
    var behind = aligned
    behind[3, 3] = -1
    #expect(!ImageTexels.lieOnPixels(matrix: behind, texels: (256, 256), pixels: Self.frame), "behind the eye")
  }
}
