import Foundation
import TesseraGeo
import TesseraTestSupport
import Testing

@testable import TesseraData

/// Contour lines: marching squares over height grids (levels, positions, saddles, unknown
/// heights, whole lines), and the contour source over the shared Monaco DEM (heights in
/// metres at the level's multiples, index lines, lines meeting across tile borders).
@Suite struct ContourTests {
  /// A grid of `size` cells whose sample (column, row) has height `f(column, row)`.
  static func grid(_ size: Int, _ f: (Double, Double) -> Double) -> [Float] {
    var heights: [Float] = []
    for row in 0...size {
      for column in 0...size { heights.append(Float(f(Double(column), Double(row)))) }
    }
    return heights
  }

  @Test func aRampGivesOneStraightLinePerLevel() {
    // Height rises 10 m per column: levels 10, 20, … cross at columns 1, 2, ….
    let lines = ContourLines.lines(heights: Self.grid(8, { x, _ in x * 10 + 0.5 }), size: 8, interval: 10)
    #expect(lines.map(\.level) == [10, 20, 30, 40, 50, 60, 70, 80])
    for line in lines {
      #expect(!line.isClosed)
      // One whole line from the top border to the bottom one, at x where the height is the level.
      #expect(line.points.count == 9, "\(line.points)")
      let x = (line.level - 0.5) / 10
      #expect(line.points.allSatisfy { abs($0.x - x) < 1e-9 }, "\(line.points)")
      #expect(Set(line.points.map(\.y)) == Set((0...8).map(Double.init)))
    }
  }

  @Test func aHillGivesClosedRings() {
    // A cone 99 m high in the middle of the grid: rings at 20, 40, 60, 80 m.
    let lines = ContourLines.lines(
      heights: Self.grid(40, { x, y in max(0, 99 - 5 * ((x - 20) * (x - 20) + (y - 20) * (y - 20)).squareRoot()) }),
      size: 40, interval: 20)
    #expect(lines.map(\.level) == [20, 40, 60, 80])
    for line in lines {
      #expect(line.isClosed)
      #expect(line.points.first! == line.points.last!)
      let radius = (99 - line.level) / 5
      for point in line.points {
        let distance = ((point.x - 20) * (point.x - 20) + (point.y - 20) * (point.y - 20)).squareRoot()
        #expect(abs(distance - radius) < 0.5, "\(line.level): \(point)")
      }
    }
    // Smoothing keeps a ring closed and near its circle.
    let ring = ContourLines.smoothed(lines[0])
    #expect(ring.isClosed && ring.points.first! == ring.points.last!)
  }

  @Test func unknownHeightsAndSaddlesAreHandled() {
    var heights = Self.grid(4, { x, _ in x * 10 + 0.5 })
    heights[2 * 5 + 2] = .nan
    let lines = ContourLines.lines(heights: heights, size: 4, interval: 10)
    // The four cells around the unknown sample have no lines: levels 20 and 30 break there.
    #expect(lines.filter { $0.level == 20 }.count == 2)
    // A saddle (high corners top-left and bottom-right) gives two segments, no crossing.
    let saddle = ContourLines.lines(heights: [10, 0, 0, 10], size: 1, interval: 6)
    #expect(saddle.count == 2 && saddle.allSatisfy { $0.points.count == 2 })
  }

  @Test func smoothingKeepsTheEndsOfOpenLines() {
    let line = ContourLines.Line(
      level: 10, points: [(0, 0), (1, 0.2), (2, -0.1), (3, 1), (4, 4)], isClosed: false)
    let smoothed = ContourLines.smoothed(line)
    #expect(smoothed.points.first! == (0, 0) && smoothed.points.last! == (4, 4))
    #expect(smoothed.points.count > line.points.count)
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func monacoContoursMeetAcrossTileBorders() throws {
    let dem = try MBTilesSource(path: SharedData.path("data/terrain/monaco-terrarium-z0-12.mbtiles"))
    let source = try ContourSource(dem: dem, name: "contours")
    #expect(source.metadata.maxZoom == 14 && source.metadata.format == .mvt)
    // Two neighbouring tiles at zoom 13 above Monaco (20 m lines).
    func lines(_ tile: TileID) throws -> VectorTileLayer {
      guard case .decoded(.vector(let vector)) = try source.fetch(tile), let layer = vector.layer(named: "contour")
      else {
        Issue.record("no contours in \(tile)")
        return VectorTileLayer(name: "contour")
      }
      return layer
    }
    let west = try lines(TileID(z: 13, x: 4264, y: 2986))
    let east = try lines(TileID(z: 13, x: 4265, y: 2986))
    #expect(west.features.count > 10 && east.features.count > 10)
    var indexLines = 0
    for feature in west.features {
      guard case .number(let height)? = west.value(of: feature, forKey: "ele") else {
        Issue.record("a line without a height")
        continue
      }
      #expect(height > 0 && height.truncatingRemainder(dividingBy: 20) == 0, "\(height)")
      let isIndex = west.value(of: feature, forKey: "index") == .bool(true)
      #expect(isIndex == (height.truncatingRemainder(dividingBy: 100) == 0))
      if isIndex { indexLines += 1 }
    }
    #expect(indexLines > 0)
    // Every end on the shared border (x = 4096 in the west tile) is an end of a line of the
    // same height at x = 0 in the east tile.
    func ends(_ layer: VectorTileLayer, x: Int32) -> Set<String> {
      var ends = Set<String>()
      for feature in layer.features {
        let points = feature.geometry[0]
        for point in [points.first!, points.last!] where point.x == x {
          ends.insert("\(layer.value(of: feature, forKey: "ele")!)@\(point.y)")
        }
      }
      return ends
    }
    let westEnds = ends(west, x: 4096)
    #expect(westEnds.count > 5)
    #expect(westEnds == ends(east, x: 0))
  }
}
