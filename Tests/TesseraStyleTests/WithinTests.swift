import TesseraGeo
import TesseraJSON
import TesseraStyle
import Testing

/// `["within", GeoJSON]`: points and lines inside polygons, as MapLibre tests them.
@Suite struct WithinTests {
  /// A feature at longitudes and latitudes (projected to world units as tiles give them).
  struct PlacedFeature: StyleFeature {
    var geometryTypeName: String
    var parts: [[(Double, Double)]]?
    var properties: [String: StyleValue] { [:] }
    var identifier: StyleValue? { nil }
    func property(_ key: String) -> StyleValue? { nil }
    var worldGeometry: [[WorldPoint]]? {
      parts?.map { part in
        part.map { Mercator.project(Coordinate(latitude: $0.1, longitude: $0.0), worldSize: 1) }
      }
    }
  }

  /// The square 0…5° with a hole 2…3°.
  static let square =
    #"{"type": "Polygon", "coordinates": [[[0, 0], [5, 0], [5, 5], [0, 5], [0, 0]], [[2, 2], [3, 2], [3, 3], [2, 3], [2, 2]]]}"#

  static func within(_ area: String, _ feature: PlacedFeature) throws -> StyleValue {
    let expression = try ExpressionParser(path: "filter").parse(try JSONParser.parse(#"["within", \#(area)]"#))
    #expect(!expression.isFeatureConstant)
    return try expression.evaluate(EvaluationContext(zoom: 3, feature: feature))
  }

  @Test(arguments: [
    ("Point", [[(1.0, 1.0)]], true), ("Point", [[(1.0, 1.0), (4.0, 4.0)]], true),
    ("Point", [[(1.0, 1.0), (6.0, 1.0)]], false),  // one point outside
    ("Point", [[(2.5, 2.5)]], false),  // in the hole
    ("Point", [[(0.0, 2.0)]], false),  // on the edge
    ("LineString", [[(1.0, 1.0), (4.0, 1.0)]], true),
    ("LineString", [[(1.0, 1.0), (4.0, 4.0)]], false),  // crosses the hole
    ("LineString", [[(1.0, 1.0), (6.0, 1.0)]], false),
    ("LineString", [[(1.0, 1.0), (1.5, 4.0)], [(4.0, 1.0), (4.5, 4.0)]], true),
    ("Polygon", [[(1.0, 1.0), (1.5, 1.0), (1.5, 1.5), (1.0, 1.0)]], false),  // polygons never are
  ])
  func featuresWithinAPolygonWithAHole(type: String, parts: [[(Double, Double)]], inside: Bool) throws {
    let feature = PlacedFeature(geometryTypeName: type, parts: parts)
    #expect(try WithinTests.within(WithinTests.square, feature) == .bool(inside))
    // The same area as a Feature, a FeatureCollection and a MultiPolygon.
    let wrapped = [
      #"{"type": "Feature", "properties": {}, "geometry": \#(WithinTests.square)}"#,
      #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": \#(WithinTests.square)}]}"#,
      #"{"type": "MultiPolygon", "coordinates": [[[[20, 20], [21, 20], [21, 21], [20, 20]]], [[[0, 0], [5, 0], [5, 5], [0, 5], [0, 0]], [[2, 2], [3, 2], [3, 3], [2, 3], [2, 2]]]]}"#,
    ]
    for area in wrapped { #expect(try WithinTests.within(area, feature) == .bool(inside)) }
  }

  @Test func featuresWithoutKnownGeometryAreNotWithin() throws {
    #expect(
      try WithinTests.within(WithinTests.square, PlacedFeature(geometryTypeName: "Point", parts: nil)) == .bool(false))
    let expression = try ExpressionParser(path: "f").parse(try JSONParser.parse(#"["within", \#(WithinTests.square)]"#))
    #expect(try expression.evaluate(EvaluationContext(zoom: 3)) == .bool(false))
  }

  @Test(arguments: [
    (#"["within"]"#, "'within' expects one GeoJSON polygon"),
    (#"["within", {"type": "Point", "coordinates": [0, 0]}]"#, "expects a Polygon or MultiPolygon, found Point"),
    (#"["within", {"type": "Polygon", "coordinates": [[[0, 0], [1, 95], [1, 1]]]}]"#, "latitudes within ±90"),
    (#"["within", {"type": "Polygon", "coordinates": [[[0, 0], [1e300, 0], [1, 1]]]}]"#, "positions [longitude"),
    (#"["within", {"type": "Polygon", "coordinates": []}]"#, "expects polygon rings"),
    (#"["within", 5]"#, "expects a GeoJSON Polygon"),
  ])
  func badAreasNameTheExpression(json: String, message: String) {
    do {
      _ = try ExpressionParser(path: "layers[1].filter").parse(try JSONParser.parse(json))
      Issue.record("must be refused: \(json)")
    } catch {
      #expect("\(error)".contains("layers[1].filter"), "\(error)")
      #expect("\(error)".contains(message), "\(error)")
    }
  }
}
