import TesseraNumbers

/// A tile of the XYZ scheme (Google/OSM): zoom level z, column x from the west, row y from the
/// north. At zoom z there are 2^z × 2^z tiles.
public struct TileID: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
  /// Zoom level, 0...30.
  public let z: Int
  /// Column, 0 ..< 2^z (west to east).
  public let x: Int
  /// Row, 0 ..< 2^z (north to south).
  public let y: Int

  /// Makes a tile id; traps when x or y are outside the zoom level's grid.
  public init(z: Int, x: Int, y: Int) {
    precondition(z >= 0 && z <= 30, "tile zoom \(z) out of range 0...30")
    precondition(x >= 0 && x < 1 << z && y >= 0 && y < 1 << z, "tile \(z)/\(x)/\(y) out of range")
    self.z = z
    self.x = x
    self.y = y
  }

  /// Makes a tile id if x and y lie inside the zoom level's grid, else nil.
  public init?(checkedZ z: Int, x: Int, y: Int) {
    guard z >= 0, z <= 30, x >= 0, x < 1 << z, y >= 0, y < 1 << z else { return nil }
    self.init(z: z, x: x, y: y)
  }

  /// The number of tiles along each axis at this zoom.
  public var tilesPerSide: Int { 1 << z }

  /// The row in the TMS scheme (y = 0 at the south), as MBTiles stores it.
  public var tmsY: Int { (1 << z) - 1 - y }

  /// The tile containing this one at a lower zoom (itself if `zoom` ≥ z).
  public func ancestor(atZoom zoom: Int) -> TileID {
    guard zoom < z else { return self }
    let shift = z - max(zoom, 0)
    return TileID(z: z - shift, x: x >> shift, y: y >> shift)
  }

  /// The four tiles one zoom level down.
  public var children: [TileID] {
    let cz = z + 1
    return [
      TileID(z: cz, x: x * 2, y: y * 2), TileID(z: cz, x: x * 2 + 1, y: y * 2),
      TileID(z: cz, x: x * 2, y: y * 2 + 1), TileID(z: cz, x: x * 2 + 1, y: y * 2 + 1),
    ]
  }

  public static func < (a: TileID, b: TileID) -> Bool {
    (a.z, a.y, a.x) < (b.z, b.y, b.x)
  }

  public var description: String { "\(z)/\(x)/\(y)" }
}
