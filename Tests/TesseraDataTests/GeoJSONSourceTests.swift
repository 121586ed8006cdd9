import Foundation
import TesseraData
import TesseraGeo
import TesseraJSON
import Testing

/// GeoJSON sources cut into tiles: positions of any value, ids of either kind.
@Suite struct GeoJSONSourceTests {
  static func source(_ geometry: String, id: String = "1") throws -> GeoJSONSource {
    try GeoJSONSource(
      data: try JSONParser.parse(#"{"type": "Feature", "id": \#(id), "properties": {}, "geometry": \#(geometry)}"#),
      name: "g")
  }

  /// Latitudes beyond ±90° (even ±1e308, which times π is infinite) are poles, never a trap.
  @Test(arguments: ["1e308", "-1e308", "1e300", "-91", "90"])
  func latitudesOfAnySizeAreClampedToThePoles(latitude: String) throws {
    for geometry in [
      #"{"type": "LineString", "coordinates": [[7.5, 43.7], [7.5, \#(latitude)]]}"#,
      #"{"type": "Polygon", "coordinates": [[[7.5, 43.7], [8, \#(latitude)], [7, \#(latitude)], [7.5, 43.7]]]}"#,
      #"{"type": "Point", "coordinates": [7.5, \#(latitude)]}"#,
    ] {
      let source = try GeoJSONSourceTests.source(geometry)
      for tile in [TileID(z: 0, x: 0, y: 0), TileID(z: 3, x: 4, y: 0), TileID(z: 12, x: 2133, y: 0)] {
        for layer in source.makeTile(tile).layers {
          for feature in layer.features {
            #expect(feature.geometry.allSatisfy { $0.allSatisfy { abs($0.y) <= 8192 * 2 && abs($0.x) <= 8192 * 2 } })
          }
        }
      }
    }
  }

  @Test func idsAreNumbersOrStringsOfDigits() throws {
    let point = #"{"type": "Point", "coordinates": [0, 0]}"#
    func id(_ text: String) throws -> UInt64? {
      try GeoJSONSourceTests.source(point, id: text).makeTile(TileID(z: 0, x: 0, y: 0)).layers.first?.features.first?.id
    }
    #expect(try id("7") == 7)
    #expect(try id(#""42""#) == 42)
    #expect(try id(#""a7""#) == nil)
    #expect(try id("-1") == nil)
    #expect(try id("1.5") == nil)
  }
}
