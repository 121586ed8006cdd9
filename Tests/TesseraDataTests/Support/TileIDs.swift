import TesseraGeo

enum TileIDs {
  static func make(_ z: Int, _ x: Int, _ y: Int) -> TileID { TileID(z: z, x: x, y: y) }
}
