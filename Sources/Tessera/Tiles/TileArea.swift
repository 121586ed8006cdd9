import TesseraGeo
import TesseraNumbers

/// The tiles of a pyramid job: the tiles of zooms `zooms` meeting a longitude/latitude box, or
/// meeting polygons (a GeoJSON area). Tiles and metatiles are enumerated lazily, so a
/// planet-sized job never holds its list.
public struct TileArea: Sendable {
  /// West, south, east, north in degrees (west ≤ east; boxes across the antimeridian are two
  /// areas).
  public let bounds: (west: Double, south: Double, east: Double, north: Double)
  public let zooms: ClosedRange<Int>
  /// Rings (outer and holes alike, even–odd rule) in degrees, longitude then latitude; nil:
  /// the whole box.
  public private(set) var rings: [[SIMD2<Double>]]?

  /// The tiles meeting a box; the error names what is wrong.
  public init(west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>) throws(TileRenderError)
  {
    for (name, value, limit) in [
      ("west", west, 180.0), ("east", east, 180), ("south", south, 90), ("north", north, 90),
    ]
    where !value.isFinite || abs(value) > limit {
      throw TileRenderError(description: "bbox \(name) must be within ±\(Int(clamping: limit))°, found \(value)")
    }
    guard west < east, south < north else {
      throw TileRenderError(
        description:
          "bbox must be west,south,east,north with west < east and south < north, found \(west),\(south),\(east),\(north)"
      )
    }
    guard zooms.lowerBound >= 0, zooms.upperBound <= 22 else {
      throw TileRenderError(description: "zooms must lie within 0…22, found \(zooms.lowerBound)-\(zooms.upperBound)")
    }
    bounds = (west, south, east, north)
    self.zooms = zooms
    rings = nil
  }

  /// The tiles meeting polygons given as rings of longitude/latitude points.
  public init(rings: [[SIMD2<Double>]], zooms: ClosedRange<Int>) throws(TileRenderError) {
    let points = rings.flatMap { $0 }
    guard let first = points.first else { throw TileRenderError(description: "the area has no polygon") }
    var box = (first.x, first.y, first.x, first.y)
    for point in points {
      box = (min(box.0, point.x), min(box.1, point.y), max(box.2, point.x), max(box.3, point.y))
    }
    try self.init(west: box.0, south: box.1, east: box.2, north: box.3, zooms: zooms)
    self.rings = rings
  }

  /// The tile column and row range at zoom `z` meeting the box.
  public func range(z: Int) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
    let n = 1 << z
    let world = Double(n)
    func column(_ longitude: Double) -> Int {
      min(max(Int(clamping: ((longitude + 180) / 360 * world).rounded(.down)), 0), n - 1)
    }
    func row(_ latitude: Double) -> Int {
      let clamped = min(max(latitude, -Mercator.maxLatitude), Mercator.maxLatitude)
      let y = Mercator.project(Coordinate(latitude: clamped, longitude: 0), worldSize: world).y
      return min(max(Int(clamping: y.rounded(.down)), 0), n - 1)
    }
    return (column(bounds.west)...column(bounds.east), row(bounds.north)...row(bounds.south))
  }

  /// Whether `tile` meets the area.
  public func contains(_ tile: TileID) -> Bool {
    guard zooms.contains(tile.z) else { return false }
    let (columns, rows) = range(z: tile.z)
    guard columns.contains(tile.x), rows.contains(tile.y) else { return false }
    guard let rings else { return true }
    return Self.rectangle(of: tile, meets: rings)
  }

  /// The number of tiles (for a box, counted from the ranges; for polygons, by walking them).
  public func tileCount() -> Int {
    zooms.reduce(0) { total, z in
      let (columns, rows) = range(z: z)
      guard rings != nil else { return total + columns.count * rows.count }
      var count = 0
      for y in rows { for x in columns where contains(TileID(z: z, x: x, y: y)) { count += 1 } }
      return total + count
    }
  }

  /// The metatiles of `size` holding the area's tiles, zoom by zoom, row by row (lazily).
  public func metatiles(size: Int) -> some Sequence<Metatile> {
    zooms.lazy.flatMap { z -> [Metatile] in
      let (columns, rows) = range(z: z)
      let side = min(size, 1 << z)
      let rowStarts = stride(from: rows.lowerBound / side * side, through: rows.upperBound, by: side)
      let columnStarts = stride(from: columns.lowerBound / side * side, through: columns.upperBound, by: side)
      // One row of metatiles at a time is materialised.
      return []
        + rowStarts.lazy.flatMap { row in
          columnStarts.map { Metatile(containing: TileID(z: z, x: $0, y: row), size: side) }
        }.filter { metatile in rings == nil || metatile.tiles.contains(where: contains) }
    }
  }

  /// Whether the tile's box meets the polygons (a corner inside, a vertex inside the tile, or
  /// crossing edges).
  static func rectangle(of tile: TileID, meets rings: [[SIMD2<Double>]]) -> Bool {
    let n = Double(1 << tile.z)
    let west = Double(tile.x) / n * 360 - 180
    let east = Double(tile.x + 1) / n * 360 - 180
    func latitude(_ row: Int) -> Double {
      Mercator.unproject(WorldPoint(x: 0, y: Double(row)), worldSize: n).latitude
    }
    let north = latitude(tile.y)
    let south = latitude(tile.y + 1)
    let corners = [SIMD2(west, south), SIMD2(east, south), SIMD2(east, north), SIMD2(west, north)]
    if corners.contains(where: { inside($0, rings) }) { return true }
    for ring in rings {
      for point in ring where point.x >= west && point.x <= east && point.y >= south && point.y <= north {
        return true
      }
      for index in ring.indices {
        let a = ring[index]
        let b = ring[(index + 1) % ring.count]
        for side in 0..<4 where segmentsCross(a, b, corners[side], corners[(side + 1) % 4]) { return true }
      }
    }
    return false
  }

  /// Even–odd point in polygons.
  static func inside(_ point: SIMD2<Double>, _ rings: [[SIMD2<Double>]]) -> Bool {
    var inside = false
    for ring in rings {
      var previous = ring.last ?? point
      for current in ring {
        if (current.y > point.y) != (previous.y > point.y),
          point.x < (previous.x - current.x) * (point.y - current.y) / (previous.y - current.y) + current.x
        {
          inside.toggle()
        }
        previous = current
      }
    }
    return inside
  }

  static func segmentsCross(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Bool {
    func orientation(_ p: SIMD2<Double>, _ q: SIMD2<Double>, _ r: SIMD2<Double>) -> Double {
      (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)
    }
    let d1 = orientation(c, d, a)
    let d2 = orientation(c, d, b)
    let d3 = orientation(a, b, c)
    let d4 = orientation(a, b, d)
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0))
  }
}

/// Splits pyramid work between machines by metatile: metatile m goes to shard
/// `hash(m) mod count`, a hash of its zoom, column and row, so dense and empty places are
/// spread over every shard (no stripes) and any machine finds its share without a list.
public struct TileShard: Sendable, Equatable, CustomStringConvertible {
  public let index: Int
  public let count: Int

  public init(index: Int, count: Int) throws(TileRenderError) {
    guard count >= 1, (0..<count).contains(index) else {
      throw TileRenderError(description: "shard must be i/n with 0 ≤ i < n, found \(index)/\(count)")
    }
    self.index = index
    self.count = count
  }

  /// Whether this shard renders `metatile`.
  public func owns(_ metatile: Metatile) -> Bool {
    count == 1 || Int(Self.hash(metatile) % UInt64(count)) == index
  }

  /// SplitMix64 of the metatile's zoom, column and row.
  static func hash(_ metatile: Metatile) -> UInt64 {
    var value = UInt64(metatile.z) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(metatile.x) << 32 ^ UInt64(metatile.y)
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  public var description: String { "\(index)/\(count)" }
}
