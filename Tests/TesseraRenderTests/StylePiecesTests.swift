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
}
