import TesseraGeo
import TesseraNumbers

/// A square block of tiles of the XYZ pyramid rendered in one frame and then cut: `size`×`size`
/// tiles (fewer where the zoom level has fewer) starting at column `x`, row `y` of zoom `z`,
/// both multiples of `size`.
public struct Metatile: Sendable, Hashable, CustomStringConvertible {
  public let z: Int
  public let x: Int
  public let y: Int
  /// Tiles per side.
  public let size: Int

  /// The metatile of blocks of `size` (a power of two) holding `tile`.
  public init(containing tile: TileID, size: Int) {
    let side = min(max(size, 1), 1 << tile.z)
    z = tile.z
    x = tile.x / side * side
    y = tile.y / side * side
    self.size = side
  }

  /// The tiles, row by row.
  public var tiles: [TileID] {
    (y..<y + size).flatMap { row in (x..<x + size).map { TileID(z: z, x: $0, y: row) } }
  }

  public var description: String { "\(z)/\(x)/\(y)×\(size)" }
}
