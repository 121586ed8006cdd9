import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraRender

@Suite struct EarcutTests {
  /// A star-shaped ring around (cx, cy) with `count` points, radii in 0.5r...r.
  static func ring(
    _ random: inout SeededRandom, cx: Double, cy: Double, radius: Double, count: Int, clockwise: Bool
  ) -> [(Double, Double)] {
    (0..<count).map { index in
      let angle = (clockwise ? -1.0 : 1.0) * Double(index) / Double(count) * 2 * .pi
      let r = radius * random.double(in: 0.5...1)
      return ((cx + r * cos(angle)).rounded(), (cy + r * sin(angle)).rounded())
    }
  }

  @Test(arguments: 0..<40)
  func trianglesCoverStarPolygonsWithHoles(seed: Int) {
    var random = SeededRandom(seed: UInt64(seed))
    var points = EarcutTests.ring(
      &random, cx: 4096, cy: 4096, radius: 3000, count: Int.random(in: 3...60, using: &random), clockwise: false)
    var holes: [Int] = []
    // Up to three small holes well inside the smallest possible outer radius.
    for hole in 0..<Int.random(in: 0...3, using: &random) {
      holes.append(points.count)
      let angle = Double(hole) * 2.1
      points += EarcutTests.ring(
        &random, cx: 4096 + 700 * cos(angle), cy: 4096 + 700 * sin(angle), radius: 300,
        count: Int.random(in: 3...12, using: &random), clockwise: true)
    }
    let triangles = Earcut.triangulate(points, holeStarts: holes)
    #expect(triangles.count % 3 == 0)
    #expect(triangles.allSatisfy { $0 >= 0 && $0 < points.count })
    #expect(Earcut.deviation(points, holeStarts: holes, triangles: triangles) < 1e-9)
  }

  @Test func degenerateInputGivesNoTrianglesAndNoCrash() {
    #expect(Earcut.triangulate([]).isEmpty)
    #expect(Earcut.triangulate([(0, 0), (1, 1)]).isEmpty)
    #expect(Earcut.triangulate([(0, 0), (1, 1), (2, 2), (3, 3)]).isEmpty)
    let square: [(Double, Double)] = [(0, 0), (10, 0), (10, 10), (0, 10)]
    #expect(Earcut.triangulate(square).count == 6)
    // Repeated points and a closing point are tolerated.
    let repeated: [(Double, Double)] = [(0, 0), (0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]
    let triangles = Earcut.triangulate(repeated)
    #expect(Earcut.deviation(repeated, holeStarts: [], triangles: triangles) < 1e-9)
  }
}

@Suite struct LineTessellatorTests {
  @Test func straightLineIsOneQuadWithDistances() {
    var tessellator = LineTessellator()
    tessellator.add([(0, 0), (100, 0)], join: .miter, closed: false)
    #expect(tessellator.vertices.count == 4 && tessellator.indices.count == 6)
    #expect(tessellator.vertices.map(\.distance) == [0, 0, 100, 100])
    // Extrusions point to both sides of the line.
    #expect(Set(tessellator.vertices.map(\.extrudeY)) == [1, -1])
  }

  @Test func distancesAreKeptInStepsOfTwoUnits() {
    var tessellator = LineTessellator()
    tessellator.add([(0, 0), (3, 0), (8, 0)], join: .miter, closed: false)
    #expect(tessellator.vertices.map(\.distance).allSatisfy { $0.truncatingRemainder(dividingBy: 2) == 0 })
    #expect(tessellator.vertices.last?.distance == 8)
  }

  @Test func capsAndJoinsAddTheirVertices() {
    func vertexCount(_ join: LineTessellator.Join, _ cap: LineTessellator.Cap) -> Int {
      var tessellator = LineTessellator()
      tessellator.cap = cap
      tessellator.add([(0, 0), (100, 0), (100, 100)], join: join, closed: false)
      return tessellator.vertices.count
    }
    // A right angle: miter adds one pair, bevel two pairs, round a fan.
    #expect(vertexCount(.miter, .butt) == 6)
    #expect(vertexCount(.bevel, .butt) == 8)
    #expect(vertexCount(.round, .butt) > 8)
    // Round caps add a pair at each end; square caps a quad of their own at each end.
    #expect(vertexCount(.miter, .round) == 10)
    #expect(vertexCount(.miter, .square) == 10)
    var round = LineTessellator()
    round.cap = .round
    round.add([(0, 0), (100, 0)], join: .miter, closed: false)
    #expect(round.vertices.contains { $0.round == 1 && $0.direction != 0 })
  }

  @Test func uTurnsStayFinite() {
    var tessellator = LineTessellator()
    tessellator.add([(0, 0), (0, 100), (0, 50)], join: .miter, closed: false)
    #expect(!tessellator.vertices.isEmpty)
    #expect(tessellator.vertices.allSatisfy { $0.extrudeX.isFinite && $0.extrudeY.isFinite })
  }

  @Test func ringsHaveNoCaps() {
    var tessellator = LineTessellator()
    tessellator.cap = .round
    tessellator.add([(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)], join: .miter, closed: true)
    #expect(tessellator.vertices.allSatisfy { $0.direction == 0 && $0.round == 0 })
    // A line string whose ends meet keeps its caps.
    var open = LineTessellator()
    open.cap = .round
    open.add([(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)], join: .miter, closed: false)
    #expect(open.vertices.contains { $0.direction != 0 })
  }

  @Test func sharpCornersGetExtraVerticesOnLongSegments() {
    var tessellator = LineTessellator()
    tessellator.sharpCornerOffset = 10
    tessellator.add([(0, 0), (500, 0), (0, 40)], join: .bevel, closed: false)
    // The corner is sharper than 75°: a vertex pair 10 units before and after it.
    #expect(tessellator.vertices.contains { $0.x == 490 && $0.y == 0 })
  }
}
