import Testing

@testable import TesseraText

/// The atlas of glyphs and colour glyphs: images land where ``ShelfAtlas/insert(width:height:pixels:)``
/// says, the rest stays zero, and an atlas nothing was placed in holds no texels of its own.
@Suite struct ShelfAtlasTests {
  /// A `width` × `height` image of one texel value per row (1, 2, …).
  static func image(width: Int, height: Int) -> [UInt8] {
    (0..<height).flatMap { row in [UInt8](repeating: UInt8(row + 1), count: width) }
  }

  @Test func anEmptyAtlasReadsAsZerosOfItsSize() {
    var atlas = ShelfAtlas(width: 16, height: 8, maxHeight: 64, bytesPerTexel: 1)
    #expect(!atlas.holdsTexels)
    #expect(atlas.pixels == [UInt8](repeating: 0, count: 16 * 8))
    #expect(atlas.bytes(ofRows: 2..<4) == [UInt8](repeating: 0, count: 32))
    atlas.markUploaded()
    #expect(atlas.dirtyRows.isEmpty && atlas.generation == 0 && !atlas.holdsTexels)
  }

  @Test func placedImagesLandWhereTheAtlasSays() throws {
    var atlas = ShelfAtlas(width: 16, height: 8, maxHeight: 64, bytesPerTexel: 1)
    let placed = atlas.insert(width: 3, height: 2, pixels: Self.image(width: 3, height: 2))
    let rect = try #require(placed)
    #expect(atlas.holdsTexels)
    #expect(rect == AtlasRect(x: 1, y: 1, width: 3, height: 2))
    let pixels = atlas.pixels
    #expect(pixels.count == 16 * 8)
    #expect(Array(pixels[(1 * 16 + 1)..<(1 * 16 + 4)]) == [1, 1, 1])
    #expect(Array(pixels[(2 * 16 + 1)..<(2 * 16 + 4)]) == [2, 2, 2])
    let sum = pixels.reduce(0) { $0 + Int($1) }
    #expect(sum == 9)  // three texels of 1, three of 2
    #expect(atlas.bytes(ofRows: 1..<2) == Array(pixels[16..<32]))
    #expect(atlas.dirtyRows.contains(1) && atlas.dirtyRows.contains(2))
  }

  /// Growing doubles the height (a new texture), before and after the first image.
  @Test func growingKeepsWhatWasPlaced() throws {
    var atlas = ShelfAtlas(width: 8, height: 4, maxHeight: 64, bytesPerTexel: 4)
    let placedFirst = atlas.insert(width: 2, height: 6, pixels: Self.image(width: 8, height: 6))
    let first = try #require(placedFirst)
    #expect(atlas.height == 8 && atlas.generation == 1 && first.y == 1)
    let placedSecond = atlas.insert(width: 2, height: 8, pixels: Self.image(width: 8, height: 8))
    let second = try #require(placedSecond)
    #expect(atlas.height == 32 && atlas.generation == 3 && second.y == 9)
    let pixels = atlas.pixels
    #expect(pixels.count == 8 * 32 * 4)
    #expect(pixels[(first.y * 8 + first.x) * 4] == 1 && pixels[((first.y + 5) * 8 + first.x) * 4] == 6)
    #expect(pixels[(second.y * 8 + second.x) * 4] == 1 && pixels[((second.y + 7) * 8 + second.x) * 4] == 8)
    let tooTall = atlas.insert(width: 2, height: 70, pixels: Self.image(width: 8, height: 70))
    #expect(tooTall == nil)
  }
}
