import Testing

@testable import TesseraRender

/// The cells of a texture that draw anything, and the rectangles a draw covers them with.
@Suite struct TextureOccupancyTests {
  /// A 32 × 16 texture blank but for the texels in `filled`, in cells of 8.
  static func occupancy(_ filled: Set<[Int]>, width: Int = 32, height: Int = 16) -> TextureOccupancy {
    TextureOccupancy(width: width, height: height, cellSize: 8) { x, y in !filled.contains([x, y]) }
  }

  func setCells(_ occupancy: TextureOccupancy) -> [[Int]] {
    (0..<occupancy.rows).flatMap { row in
      (0..<occupancy.columns).compactMap { column in
        occupancy.cells[row * occupancy.columns + column] ? [column, row] : nil
      }
    }
  }

  @Test func aCellIsSetWhenALinearSampleInsideItCanReachATexel() {
    // Texel (12, 3) lies inside cell (1, 0); samples in cell (0, 0) reach at most texel 8.
    #expect(setCells(TextureOccupancyTests.occupancy([[12, 3]])) == [[1, 0]])
    // Texel (8, 8) is the first of cell (1, 1), and within reach of cells (0, 0), (1, 0), (0, 1).
    #expect(setCells(TextureOccupancyTests.occupancy([[8, 8]])) == [[0, 0], [1, 0], [0, 1], [1, 1]])
    // The last texel of a row reaches no cell beyond the texture.
    #expect(setCells(TextureOccupancyTests.occupancy([[31, 15]])) == [[3, 1]])
    #expect(TextureOccupancyTests.occupancy([]).isEmpty)
    #expect(!TextureOccupancyTests.occupancy([]).isFull)
    let everywhere = Set((0..<4).flatMap { column in (0..<2).map { row in [column * 8 + 3, row * 8 + 3] } })
    #expect(TextureOccupancyTests.occupancy(everywhere).isFull)
  }

  @Test func runsCoverTheSetCellsOnceAndJoinRowsOfTheSameSpan() {
    // Cells (1, 0), (2, 0), (1, 1), (2, 1) and (0, 1): the first two columns' span joins rows.
    let occupancy = TextureOccupancyTests.occupancy([[12, 3], [20, 3], [12, 12], [20, 12], [3, 12]])
    #expect(setCells(occupancy) == [[1, 0], [2, 0], [0, 1], [1, 1], [2, 1]])
    let runs = occupancy.runs(in: (0, 0, 1, 1))
    #expect(runs == [SIMD4(0.25, 0, 0.75, 0.5), SIMD4(0, 0.5, 0.75, 1)])
    // A part of the texture: runs are cut to it and given across it.
    let part = occupancy.runs(in: (0.5, 0.5, 0.5, 0.5))
    #expect(part == [SIMD4(0, 0, 0.5, 1)])
    #expect(occupancy.runs(in: (0.75, 0, 0.25, 0.5)).isEmpty)
  }

  @Test func runsOfAFullTextureAreTheWholeSquare() {
    let everywhere = Set((0..<4).flatMap { column in (0..<2).map { row in [column * 8 + 3, row * 8 + 3] } })
    #expect(TextureOccupancyTests.occupancy(everywhere).runs(in: (0, 0, 1, 1)) == [SIMD4(0, 0, 1, 1)])
  }

  /// Hillshade draws the whole square when it does not know the texture, nothing when the
  /// texture is blank.
  @Test func hillshadeRectanglesFollowTheOccupancy() {
    #expect(HillshadeLayerRenderer.rectangles(nil, textureRect: (0, 0, 1, 1)) == [SIMD4(0, 0, 1, 1)])
    #expect(HillshadeLayerRenderer.rectangles(TextureOccupancyTests.occupancy([]), textureRect: (0, 0, 1, 1)).isEmpty)
  }
}
