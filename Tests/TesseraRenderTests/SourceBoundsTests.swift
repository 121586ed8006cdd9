import Foundation
import TesseraData
import TesseraGeo
import TesseraStyle
import Testing

@testable import TesseraRender

/// Source bounds (a style source's `bounds`, else its TileJSON's or archive's): tiles wholly
/// outside are not requested.
@Suite struct SourceBoundsTests {
  static func source(bounds: CoordinateBounds?, maxZoom: Int = 14) -> RenderSource {
    RenderSource(
      id: "v", source: DemoCitySource(), kind: .vector, tileSize: 512, minZoom: 0, maxZoom: maxZoom, bounds: bounds)
  }

  @Test func tilesOutsideTheBoundsHoldNoData() {
    // Berlin's Kreuzberg, as MapLibre's tilejson-bounds case: the east edge at 13.4252°.
    let bounds = CoordinateBounds(south: 52.4959407, west: 13.4043671, north: 52.5033795, east: 13.4252476)
    let source = SourceBoundsTests.source(bounds: bounds)
    // At zoom 14 the bounds span columns 8802.05…8803.00 and rows 5374.46…5375.02.
    #expect(source.holdsData(TileID(z: 14, x: 8802, y: 5374)))
    #expect(source.holdsData(TileID(z: 14, x: 8802, y: 5375)))
    #expect(!source.holdsData(TileID(z: 14, x: 8803, y: 5374)))
    #expect(!source.holdsData(TileID(z: 14, x: 8802, y: 5373)))
    #expect(!source.holdsData(TileID(z: 14, x: 8802, y: 5376)))
    // Deeper than the source: its ancestor at zoom 14 decides.
    #expect(source.holdsData(TileID(z: 16, x: 8802 * 4 + 3, y: 5374 * 4)))
    #expect(!source.holdsData(TileID(z: 16, x: 8803 * 4, y: 5374 * 4)))
    #expect(source.holdsData(TileID(z: 0, x: 0, y: 0)))
    #expect(SourceBoundsTests.source(bounds: nil).holdsData(TileID(z: 14, x: 0, y: 0)))
    // Invalid bounds are no bounds.
    #expect(SourceBoundsTests.source(bounds: CoordinateBounds()).bounds == nil)
  }

  @Test func stylesReadSourceBounds() throws {
    func style(_ bounds: String) throws -> Style {
      try Style.parse(
        Array(
          #"{"version": 8, "sources": {"v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"], "bounds": \#(bounds)}}, "layers": []}"#
            .utf8), source: "b.json")
    }
    let parsed = try style("[1, 2, 3, 4]").sources["v"]?.bounds
    #expect(parsed == CoordinateBounds(south: 2, west: 1, north: 4, east: 3))
    for (bad, message) in [
      ("[1, 2, 3]", "sources.v.bounds: expected [west, south, east, north], found 3 numbers"),
      ("[1, 95, 3, 4]", "sources.v.bounds[1]"), ("[3, 2, 1, 4]", "expected west ≤ east"),
      ("[1, 2, 3, 1e999]", "number '1e999' is out of range"), ("[1e300, 2, 3, 4]", "sources.v.bounds[0]"),
    ] {
      #expect(throws: StyleError.self) { try style(bad) }
      do { _ = try style(bad) } catch { #expect("\(error)".contains(message), "\(error)") }
    }
  }
}
