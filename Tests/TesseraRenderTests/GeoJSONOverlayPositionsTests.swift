import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraStyle
import Testing

@testable import Tessera

/// Positions of GeoJSON overlays and of scene paths are read straight from the parsed values
/// when they are valid, and through field cursors when not: the same coordinates either way,
/// and every wrong position still named in the error.
@Suite struct GeoJSONOverlayPositionsTests {
  static let camera: JSONValue = ["latitude": 0, "longitude": 0, "zoom": 5]

  /// The overlays read from a scene whose `geojsonOverlays` entry names `geojson`.
  static func overlays(geojson: JSONValue) throws -> [MapOverlay] {
    let fields: JSONObject = ["camera": camera, "mapType": "none", "geojsonOverlays": [["geojson": "shapes"]]]
    let access = ResourceAccess.inlineOnly(providing: ["shapes": Array(geojson.serialized().utf8)])
    let scene = try Scene.parse(.object(fields), path: "request", access: access)
    return try SceneContent(scene: scene).overlays
  }

  static func feature(_ type: String, _ coordinates: JSONValue) -> JSONValue {
    ["type": "Feature", "properties": [:], "geometry": ["type": .string(type), "coordinates": coordinates]]
  }

  @Test func positionsAreReadWithTheirAltitudesIgnored() throws {
    let line = (0..<1_000).map { index -> JSONValue in
      let longitude = -179.5 + Double(index) * 0.359
      let latitude = -89.5 + Double(index) * 0.179
      return index % 3 == 0 ? [.number(longitude), .number(latitude), 120.5] : [.number(longitude), .number(latitude)]
    }
    let collection: JSONValue = [
      "type": "FeatureCollection",
      "features": [
        Self.feature("LineString", .array(line)),
        Self.feature(
          "Polygon", [[[0, 0], [1, 0], [1, 1], [0, 0]], [[0.2, 0.2], [0.4, 0.2], [0.2, 0.4], [0.2, 0.2]]]),
      ],
    ]
    let read = try Self.overlays(geojson: collection)
    #expect(read.count == 2)
    let polyline = try #require(read.first as? Polyline)
    #expect(polyline.path.count == 1_000)
    for (index, coordinate) in polyline.path.enumerated() {
      let expected = Coordinate(latitude: -89.5 + Double(index) * 0.179, longitude: -179.5 + Double(index) * 0.359)
      #expect(coordinate == expected, "position \(index)")
    }
    let polygon = try #require(read.last as? Polygon)
    #expect(
      polygon.path == [
        .init(latitude: 0, longitude: 0), .init(latitude: 0, longitude: 1),
        .init(latitude: 1, longitude: 1), .init(latitude: 0, longitude: 0),
      ])
    #expect(polygon.holes.first?.count == 4 && polygon.holes.first?[1] == .init(latitude: 0.2, longitude: 0.4))
  }

  @Test func wrongPositionsAreNamed() throws {
    let cases: [(geometry: JSONValue, field: String, reason: String)] = [
      (
        Self.feature("LineString", [[0, 0], [0, 91]]), "features[0].geometry.coordinates[1]", "[longitude, latitude]"
      ),
      (Self.feature("LineString", [[0, 0], [5]]), "features[0].geometry.coordinates[1]", "[longitude, latitude]"),
      (Self.feature("LineString", [[0, 0], [0, 1, "high"]]), "features[0].geometry.coordinates[1][2]", "a number"),
      (Self.feature("LineString", [[0, 0], ["1", 1]]), "features[0].geometry.coordinates[1][0]", "a number"),
      (Self.feature("LineString", [[0, 0], 7]), "features[0].geometry.coordinates[1]", "an array"),
      (Self.feature("LineString", "x"), "features[0].geometry.coordinates", "an array"),
      (
        Self.feature("LineString", [[0, 0], [4000, 1]]), "features[0].geometry.coordinates[1]", "[longitude, latitude]"
      ),
      (
        Self.feature("Polygon", [[[0, 0], [1, 0], [1, 100], [0, 0]]]), "features[0].geometry.coordinates[0][2]",
        "[longitude, latitude]"
      ),
      (
        Self.feature("MultiLineString", [[[0, 0], [1, 1]], [[0, 0], [1, -95]]]),
        "features[0].geometry.coordinates[1][1]", "[longitude, latitude]"
      ),
      (Self.feature("LineString", [[0, 0], [0, 1, 2, "x"]]), "features[0].geometry.coordinates[1][3]", "a number"),
      (Self.feature("LineString", [[0, 0], [0, 1, nil]]), "features[0].geometry.coordinates[1][2]", "a number"),
      (Self.feature("LineString", [[0, 0], []]), "features[0].geometry.coordinates[1]", "[longitude, latitude]"),
      (
        Self.feature(
          "MultiPolygon", [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[0, 0], [1, 0], [1, 1], [0, -91]]]]),
        "features[0].geometry.coordinates[1][0][3]", "[longitude, latitude]"
      ),
    ]
    for (geometry, field, reason) in cases {
      let collection: JSONValue = ["type": "FeatureCollection", "features": [geometry]]
      do {
        _ = try Self.overlays(geojson: collection)
        Issue.record("\(field): no error")
      } catch {
        #expect("\(error)".contains("shapes: \(field):"), "\(field): \(error)")
        #expect("\(error)".contains(reason), "\(field): \(error)")
      }
    }
  }

  @Test func scenePathsReadLatitudeFirstAndNameWrongPoints() throws {
    let path: JSONValue = .array(
      (0..<200).map { index in [.number(Double(index) * 0.4 - 40), .number(Double(index))] })
    let fields: JSONObject = ["camera": Self.camera, "mapType": "none", "polylines": [["path": path]]]
    let scene = try Scene.parse(.object(fields), path: "request", access: .inlineOnly(providing: [:]))
    let polyline = try #require(try SceneContent(scene: scene).overlays.first as? Polyline)
    #expect(polyline.path.count == 200)
    #expect(polyline.path[150] == Coordinate(latitude: 150 * 0.4 - 40, longitude: 150))
    // A third number is an error in a scene path (it is a GeoJSON altitude only).
    for (points, field) in [
      ([[0, 0], [1, 1, 1]], "polylines[0].path[1]"), ([[0, 0], [1, "1"]], "polylines[0].path[1][1]"),
      ([[0, 0], [91, 0]], "polylines[0].path[1]"), ([[0, 0], [5]], "polylines[0].path[1]"),
      ([[0, 0], 7], "polylines[0].path[1]"),
    ]
      as [(JSONValue, String)]
    {
      let fields: JSONObject = ["camera": Self.camera, "mapType": "none", "polylines": [["path": points]]]
      do {
        let scene = try Scene.parse(.object(fields), path: "request", access: .inlineOnly(providing: [:]))
        _ = try SceneContent(scene: scene)
        Issue.record("\(field): no error")
      } catch {
        #expect("\(error)".contains("request: \(field)"), "\(field): \(error)")
      }
    }
  }

  /// A GeoJSON source's tiles are cached under its data and options: equal sources share the
  /// key, and a change to any coordinate or option makes another.
  @Test func inlineGeoJSONIsKeyedByItsDataAndOptions() throws {
    func identity(_ source: JSONObject) throws -> String {
      let document: JSONValue = ["version": 8, "sources": ["s": .object(source)], "layers": []]
      let style = try Style.parse(document, source: "test")
      let bound = try StyleSourceBinder(locator: TileSourceLocator(dataRoot: "/tmp")).bind(style, name: "test")
      return try #require(bound.sources["s"]).bound.identity
    }
    func data(_ latitude: Double) -> JSONValue {
      [
        "type": "FeatureCollection",
        "features": [Self.feature("LineString", [[7.42, 43.73], [7.43, .number(latitude)]])],
      ]
    }
    let base: JSONObject = ["type": "geojson", "data": data(43.74)]
    let key = try identity(base)
    #expect(try identity(base) == key, "the same source keyed otherwise")
    let changes: [(String, JSONValue)] = [
      ("data", data(43.7400001)), ("maxzoom", 10), ("buffer", 64), ("tolerance", 1), ("lineMetrics", true),
      ("generateId", true), ("filter", ["==", ["get", "a"], 1]),
    ]
    var keys: Set<String> = [key]
    for (field, value) in changes {
      var changed = base
      changed[field] = value
      #expect(keys.insert(try identity(changed)).inserted, "\(field) changed and the key did not")
    }
  }
}
