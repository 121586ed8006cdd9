import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraStyle
import Testing

@testable import TesseraRender

/// GeoJSON properties holding arrays and objects reach expressions as arrays and objects, so
/// array-valued layout properties (`text-offset`, `icon-offset`) can be read from features.
@Suite struct ArrayPropertyTests {
  static let collection = #"""
    {"type": "FeatureCollection", "features": [
      {"type": "Feature", "properties": {"offset": [1, -2], "meta": {"rank": 3, "tags": ["a", null]}},
       "geometry": {"type": "Point", "coordinates": [-10, 0]}},
      {"type": "Feature", "properties": {"offset": [0, 1.5]}, "geometry": {"type": "Point", "coordinates": [10, 0]}}]}
    """#

  /// The tile's features, in the order of the collection.
  static func features() throws -> [TileFeature] {
    let source = try GeoJSONSource(data: try JSONParser.parse(collection), name: "g")
    let layer = try #require(source.makeTile(TileID(z: 0, x: 0, y: 0)).layers.first)
    let shared = TileFeatureLayer(layer: layer)
    return layer.features.indices.map { TileFeature(shared, index: $0) }
  }

  @Test func arraysAndObjectsAreReadAsTheyAre() throws {
    let first = try #require(try ArrayPropertyTests.features().first)
    #expect(first.property("offset") == .array([.number(1), .number(-2)]))
    let meta = try #require(first.property("meta"))
    let context = EvaluationContext(zoom: 0, feature: first)
    let rank = try ExpressionParser(path: "e").parse(try JSONParser.parse(#"["get", "rank", ["get", "meta"]]"#))
    #expect(try rank.evaluate(context) == .number(3))
    #expect(first.properties["meta"] == meta)
  }

  @Test func arrayLayoutPropertiesAreEvaluatedPerFeature() throws {
    let style = try Style.parse(
      Array(
        #"""
        {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [
          {"id": "identity", "type": "symbol", "source": "g",
           "layout": {"text-field": "a", "text-offset": {"type": "identity", "property": "offset"}}},
          {"id": "get", "type": "symbol", "source": "g", "layout": {"text-field": "a", "text-offset": ["get", "offset"]}}
         ]}
        """#.utf8), source: "s.json")
    let features = try ArrayPropertyTests.features()
    for layer in style.layers {
      #expect(layer[SymbolProperties.textOffset].isDataDriven, "\(layer.id)")
      let offsets = features.map { layer.value(SymbolProperties.textOffset, zoom: 0, feature: $0) }
      #expect(offsets == [[1, -2], [0, 1.5]], "\(layer.id)")
    }
  }
}
