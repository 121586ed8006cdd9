import Foundation
import TesseraData
import TesseraStyle
import TesseraTestSupport
import Testing

@testable import TesseraRender

/// The first layer of a style made of `layers` (JSON text) over a geojson source `s`.
func styleLayer(_ layer: String) throws -> StyleLayer {
  let text =
    #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": ["#
    + layer + "]}"
  return try #require(try Style.parse(Array(text.utf8)).layers.first)
}

@Suite struct HillshadePreparationTests {
  static func dem(_ height: (Int, Int) -> Float, size: Int = 8) -> DEMTile {
    DEMTile(
      width: size, height: size, heights: (0..<size * size).map { height($0 % size, $0 / size) })
  }

  func red(_ pixels: [UInt8], x: Int, y: Int, size: Int = 8) -> UInt8 { pixels[(y * size + x) * 4] }
  func green(_ pixels: [UInt8], x: Int, y: Int, size: Int = 8) -> UInt8 { pixels[(y * size + x) * 4 + 1] }

  @Test func flatGroundHasNoSlope() {
    let pixels = HillshadePreparation.prepare(
      HillshadePreparationTests.dem { _, _ in 500 }, neighbours: Array(repeating: nil, count: 8), zoom: 12,
      maxZoom: 12)
    #expect(pixels.count == 8 * 8 * 4)
    #expect(stride(from: 0, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 128 && pixels[$0 + 1] == 128 })
  }

  @Test func slopesPointUphill() {
    // Rising to the east: red above the midpoint; rising to the south: green above it.
    let east = HillshadePreparation.prepare(
      HillshadePreparationTests.dem { x, _ in Float(x) * 40 }, neighbours: Array(repeating: nil, count: 8), zoom: 12,
      maxZoom: 12)
    #expect(red(east, x: 4, y: 4) > 128 && green(east, x: 4, y: 4) == 128)
    let south = HillshadePreparation.prepare(
      HillshadePreparationTests.dem { _, y in Float(y) * 40 }, neighbours: Array(repeating: nil, count: 8), zoom: 12,
      maxZoom: 12)
    #expect(green(south, x: 4, y: 4) > 128 && red(south, x: 4, y: 4) == 128)
    // Coarser tiles of the same source are exaggerated.
    let coarse = HillshadePreparation.prepare(
      HillshadePreparationTests.dem { x, _ in Float(x) * 10 }, neighbours: Array(repeating: nil, count: 8), zoom: 8,
      maxZoom: 12)
    let fine = HillshadePreparation.prepare(
      HillshadePreparationTests.dem { x, _ in Float(x) * 10 }, neighbours: Array(repeating: nil, count: 8), zoom: 8,
      maxZoom: 8)
    #expect(red(coarse, x: 4, y: 4) > red(fine, x: 4, y: 4))
  }

  @Test func edgesReadTheNeighbourWhenItIsThere() {
    // A ramp continuing into the east neighbour: with the neighbour the last column keeps the
    // slope; without it the edge pixel is repeated and the slope halves.
    let ramp = HillshadePreparationTests.dem { x, _ in Float(x) * 40 }
    let eastNeighbour = HillshadePreparationTests.dem { x, _ in Float(x + 8) * 40 }
    var neighbours: [DEMTile?] = Array(repeating: nil, count: 8)
    neighbours[HillshadePreparation.neighbourOffsets.firstIndex { $0 == (1, 0) }!] = eastNeighbour
    let joined = HillshadePreparation.prepare(ramp, neighbours: neighbours, zoom: 12, maxZoom: 12)
    let alone = HillshadePreparation.prepare(
      ramp, neighbours: Array(repeating: nil, count: 8), zoom: 12, maxZoom: 12)
    #expect(red(joined, x: 7, y: 4) == red(joined, x: 4, y: 4))
    #expect(red(alone, x: 7, y: 4) < red(alone, x: 4, y: 4))
  }

  /// The byte of a derivative is 128 + d · 127.5 rounded as `rounded()` rounds (halves away from
  /// zero) and clamped to 0…255: at every half step (where the two roundings differ), the
  /// numbers beside them, the clamps' edges, random values and the special ones.
  @Test func encodesAsTheRoundedFormula() {
    func formula(_ derivative: Double) -> UInt8 {
      let scaled = (derivative * 127.5).rounded() + 128
      return scaled.isNaN ? 128 : UInt8(clamping: min(max(scaled, 0), 255))
    }
    var values: [Double] = [0, -0.0, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, 1e-300, -1e-300]
    for step in -600...600 {
      let half = (Double(step) + 0.5) / 127.5
      let whole = Double(step) / 127.5
      for value in [half, whole] { values += [value, value.nextUp, value.nextDown] }
    }
    var random = SeededRandom(seed: 7)
    for _ in 0..<20_000 { values.append(Double.random(in: -2.5...2.5, using: &random)) }
    let halves = values.filter {
      let scaled = $0 * 127.5; return scaled - scaled.rounded(.down) == 0.5
    }
    #expect(halves.count > 500, "exact halves among the values: \(halves.count)")
    for value in values {
      #expect(HillshadePreparation.encode(value) == formula(value), "derivative \(value)")
    }
  }

  /// The 3×3 kernel written out directly, reading every elevation through the edge rules:
  /// the prepared texture must hold the same bytes for random terrain, any set of neighbours
  /// (one of another size), any zoom and sizes that are not square.
  @Test func matchesTheKernelReadPixelByPixel() {
    var random = SeededRandom(seed: 12)
    for round in 0..<24 {
      let width = [1, 2, 7, 16][round % 4]
      let height = [1, 3, 16, 9][(round / 4) % 4]
      func terrain() -> DEMTile {
        DEMTile(
          width: width, height: height,
          heights: (0..<width * height).map { _ in Float.random(in: -50...3000, using: &random) })
      }
      let dem = terrain()
      let neighbours: [DEMTile?] = (0..<8).map { index in
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return nil
        case 1: return terrain()
        default:
          return index == 4
            ? DEMTile(width: width + 1, height: height, heights: .init(repeating: 7, count: (width + 1) * height))
            : terrain()
        }
      }
      let zoom = Int.random(in: 0...16, using: &random)
      let maxZoom = zoom + Int.random(in: 0...4, using: &random)
      let pixels = HillshadePreparation.prepare(dem, neighbours: neighbours, zoom: zoom, maxZoom: maxZoom)
      func elevation(_ x: Int, _ y: Int) -> Double {
        if x >= 0, x < width, y >= 0, y < height { return Double(dem.heights[y * width + x]) / 4 }
        let dx = x < 0 ? -1 : (x >= width ? 1 : 0)
        let dy = y < 0 ? -1 : (y >= height ? 1 : 0)
        let index = HillshadePreparation.neighbourOffsets.firstIndex { $0 == (dx, dy) }!
        if let neighbour = neighbours[index], neighbour.width == width, neighbour.height == height {
          return Double(neighbour.heights[((y + height) % height) * width + (x + width) % width]) / 4
        }
        return Double(dem.height(x: x, y: y)) / 4
      }
      let z = Double(zoom)
      let divisor = pow(2, (z - Double(maxZoom)) * (z < 2 ? 0.4 : (z < 4.5 ? 0.35 : 0.3)) + 19.2562 - z)
      var expected = [UInt8](repeating: 255, count: width * height * 4)
      for y in 0..<height {
        for x in 0..<width {
          let (a, b, c) = (elevation(x - 1, y - 1), elevation(x, y - 1), elevation(x + 1, y - 1))
          let (d, f) = (elevation(x - 1, y), elevation(x + 1, y))
          let (g, h, i) = (elevation(x - 1, y + 1), elevation(x, y + 1), elevation(x + 1, y + 1))
          expected[(y * width + x) * 4] = HillshadePreparation.encode(((c + f + f + i) - (a + d + d + g)) / divisor)
          expected[(y * width + x) * 4 + 1] = HillshadePreparation.encode(
            ((g + h + h + i) - (a + b + b + c)) / divisor)
        }
      }
      #expect(pixels == expected, "round \(round): \(width)x\(height) at zoom \(zoom) of \(maxZoom)")
    }
  }
}
