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

  static let collection = try! JSONParser.parse(
    #"""
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": 70, "properties": {"kind": "a"}, "geometry": {"type": "Point", "coordinates": [1, 1]}},
      {"type": "Feature", "id": 80, "properties": {"kind": "b"}, "geometry": {"type": "Point", "coordinates": [2, 2]}},
      {"type": "Feature", "properties": {"kind": "a"}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [0.0004, 0.00001], [0.001, 0]]}}]}
    """#)

  static func features(_ options: GeoJSONOptions, tile: TileID = TileID(z: 0, x: 0, y: 0)) throws -> [VectorFeature] {
    try GeoJSONSource(data: collection, name: "g", options: options).makeTile(tile).layers.first?.features ?? []
  }

  @Test func optionsGenerateIdsFilterFeaturesAndSetBufferAndTolerance() throws {
    var options = GeoJSONOptions()
    #expect(try GeoJSONSourceTests.features(options).map(\.id) == [70, 80, nil])
    options.generateIds = true
    #expect(try GeoJSONSourceTests.features(options).map(\.id) == [0, 1, 2])
    options.filter = { info in info.properties.contains { $0.0 == "kind" && $0.1 == .string("a") } }
    #expect(try GeoJSONSourceTests.features(options).map(\.id) == [0, 2])
    // The line's middle vertex lies 0.00001° off its chord: simplified away at zoom 0 by the
    // default tolerance, kept with tolerance 0.
    func lineVertices(_ options: GeoJSONOptions) throws -> Int {
      try GeoJSONSourceTests.features(options).first { $0.type == .lineString }?.geometry.first?.count ?? 0
    }
    #expect(try lineVertices(options) == 2)
    options.tolerance = 0
    #expect(try lineVertices(options) == 3)
    // Points 1° and 2° east of tile 3/3/3's east edge: inside its default buffer (128 pixels
    // of 512: 11.25° at zoom 3), outside with none.
    let tile = TileID(z: 3, x: 4, y: 3)
    var buffered = GeoJSONOptions()
    buffered.filter = { $0.id == 70 || $0.id == 80 }
    #expect(try GeoJSONSourceTests.features(buffered, tile: TileID(z: 3, x: 4, y: 3)).count == 2)
    buffered.buffer = 0
    #expect(try GeoJSONSourceTests.features(buffered, tile: tile).count == 2)
    #expect(try GeoJSONSourceTests.features(buffered, tile: TileID(z: 3, x: 3, y: 3)).isEmpty)
    buffered.buffer = 128
    #expect(try GeoJSONSourceTests.features(buffered, tile: TileID(z: 3, x: 3, y: 3)).count == 2)
  }
}
