import Foundation
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraStyle
import Testing

func property(_ json: String, _ name: String, _ type: LayerType = .line) throws -> PropertyValue {
  try PropertyValue.parse(try JSONParser.parse(json), spec: PropertySpec.byLayerType[type]![name]!, path: "p")
}

@Suite struct LegacyFunctionTests {
  @Test func zoomFunctions() throws {
    let width = try property(#"{"base": 2, "stops": [[12, 0], [16, 15]]}"#, "line-width")
    #expect(width.isZoomDependent && !width.isDataDriven)
    #expect(width.number(zoom: 14) == 3)
    #expect(width.number(zoom: 10) == 0 && width.number(zoom: 20) == 15)
    let color = try property(##"{"stops": [[5, "hsl(26, 87%, 62%)"], [6, "#fc8"]]}"##, "line-color")
    #expect(color.color(zoom: 6) == (try Color(css: "#fc8")))
    let cap = try property(#"{"stops": [[10, "butt"], [14, "round"]]}"#, "line-cap")
    #expect(cap.evaluate(zoom: 12) == .string("butt") && cap.evaluate(zoom: 14) == .string("round"))
  }

  @Test func propertyFunctions() throws {
    let categorical = try property(
      ##"{"property": "class", "type": "categorical", "stops": [["park", "#00ff00"], ["wood", "#008000"]], "default": "#ffffff"}"##,
      "fill-color", .fill)
    #expect(categorical.isDataDriven)
    #expect(categorical.color(zoom: 14, feature: feature) == Color(r: 0, g: 255, b: 0))
    #expect(categorical.color(zoom: 14, feature: TestFeature(properties: [:])) == .white)
    let identity = try property(#"{"property": "height", "type": "identity"}"#, "fill-extrusion-height", .fillExtrusion)
    #expect(identity.number(zoom: 15, feature: feature) == 24)
    let exponential = try property(#"{"property": "height", "stops": [[0, 0], [48, 10]]}"#, "line-width")
    #expect(exponential.number(zoom: 15, feature: feature) == 5)
    #expect(exponential.number(zoom: 15, feature: TestFeature(properties: ["height": .string("x")])) == 1, "default")
  }

  @Test func zoomAndPropertyFunctions() throws {
    let width = try property(
      #"{"property": "height", "stops": [[{"zoom": 10, "value": 0}, 0], [{"zoom": 10, "value": 48}, 4], [{"zoom": 20, "value": 0}, 0], [{"zoom": 20, "value": 48}, 40]]}"#,
      "line-width")
    #expect(width.isDataDriven && width.isZoomDependent)
    // At zoom 15: halfway between 2 (zoom 10, height 24) and 20 (zoom 20).
    #expect(width.number(zoom: 15, feature: feature) == 11)
  }

  @Test func literalsAreCheckedAgainstTheType() {
    #expect(throws: StyleError.self) { try property(#""not a colour""#, "line-color") }
    #expect(throws: StyleError.self) { try property(#""sideways""#, "line-cap") }
    #expect(throws: StyleError.self) { try property(#"[1, 2, 3]"#, "line-translate") }
    #expect(throws: StyleError.self) { try property(#"["get", "x"]"#, "line-cap") }
  }

  @Test func constantExpressionsFold() throws {
    let folded = try property(#"["+", 1, 2]"#, "line-width")
    #expect(folded.constant == .number(3))
    let negative = try property(#"-4"#, "line-width")
    #expect(negative.constant == .number(0), "clamped to the minimum")
  }
}

@Suite struct FilterTests {
  struct Row: Sendable, CustomStringConvertible {
    let json: String
    let expected: Bool
    var description: String { json }
    init(_ json: String, _ expected: Bool) {
      self.json = json
      self.expected = expected
    }
  }

  static let rows: [Row] = [
    Row(##"["==", "class", "park"]"##, true), Row(##"["==", "level", "2"]"##, false),
    Row(##"["!=", "missing", "x"]"##, true),
    Row(##"["==", "missing", "x"]"##, false), Row(##"[">", "height", 20]"##, true),
    Row(##"[">", "height", "20"]"##, false),
    Row(##"["<", "missing", 5]"##, false), Row(##"["in", "class", "wood", "park"]"##, true),
    Row(##"["!in", "class", "wood", "park"]"##, false),
    Row(##"["has", "flag"]"##, true), Row(##"["!has", "flag"]"##, false), Row(##"["==", "$type", "Polygon"]"##, true),
    Row(##"["==", "$id", 42]"##, true), Row(##"["all", ["==", "class", "park"], [">=", "level", 2]]"##, true),
    Row(##"["any", ["==", "class", "wood"], ["<", "level", 1]]"##, false),
    Row(##"["none", ["==", "class", "wood"]]"##, true),
    Row(##"["none", [">", "missing", 5]]"##, true), Row(##"["all"]"##, true),
    // Expression filters.
    Row(##"["==", ["geometry-type"], "Polygon"]"##, true), Row(##"["<=", ["get", "admin_level"], 2]"##, false),
    Row(##"["match", ["get", "class"], ["motorway", "park"], true, false]"##, true),
    Row(##"["in", ["get", "class"], ["literal", ["park"]]]"##, true),
    Row(#"["all", ["!=", ["get", "brunnel"], "tunnel"], ["has", "class"]]"#, true), Row("true", true),
    Row("false", false),
  ]

  @Test(arguments: rows)
  func filters(_ row: Row) throws {
    let filter = try Filter.parse(try JSONParser.parse(row.json), path: "filter")
    let result = (try? filter.evaluate(EvaluationContext(zoom: 14, feature: feature))) == .bool(true)
    #expect(result == row.expected)
  }
}

@Suite struct StyleDocumentTests {
  func parse(_ text: String) throws(StyleError) -> Style { try Style.parse(Array(text.utf8), source: "s.json") }

  @Test func parsesSourcesLayersAndCamera() throws {
    let style = try parse(
      #"{"version": 8, "center": [7.4, 43.7], "zoom": 14, "pitch": 30, "sources": {"v": {"type": "vector", "url": "mbtiles://x.mbtiles"}, "g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}}, {"id": "roads", "type": "line", "source": "v", "source-layer": "transportation", "minzoom": 10, "filter": ["==", "class", "primary"], "layout": {"line-cap": "round"}, "paint": {"line-width": 3}}]}"#
    )
    #expect(style.layers.map(\.id) == ["bg", "roads"])
    #expect(style.center == TesseraGeoCoordinate.make(43.7, 7.4) && style.zoom == 14 && style.pitch == 30)
    let roads = style.layers[1]
    #expect(roads.value(LineProperties.cap, zoom: 12) == .round)
    #expect(roads.value(LineProperties.join, zoom: 12) == .miter, "default")
    #expect(roads.value(LineProperties.width, zoom: 12) == 3)
    #expect(roads.value(LineProperties.dashArray, zoom: 12) == nil, "unset")
    // A property of another layer type reads as its default instead of trapping.
    #expect(roads.value(FillProperties.color, zoom: 12) == .black)
    #expect(style.layers[0].value(BackgroundProperties.color, zoom: 3) == Color(r: 255, g: 0, b: 0))
    #expect(roads.isVisible(atZoom: 10) && !roads.isVisible(atZoom: 9.5))
    #expect(style.sources["v"]?.tileSize == 512 && style.sources["g"]?.kind == .geojson)
    #expect(style.warnings.isEmpty)
  }

  @Test func unknownTypesAndPropertiesWarnAndTheRestRenders() throws {
    let style = try parse(
      #"{"version": 8, "sources": {}, "layers": [{"id": "a", "type": "sparkle"}, {"id": "b", "type": "background", "paint": {"background-colour": "red", "background-color": "blue"}}]}"#
    )
    #expect(style.layers.map(\.id) == ["b"])
    #expect(style.warnings.count == 2)
    #expect(style.warnings[0].contains("layer 'a'") && style.warnings[0].contains("unknown layer type 'sparkle'"))
    #expect(style.warnings[1].contains("layers[1].paint.background-colour") && style.warnings[1].contains("layer 'b'"))
  }

  @Test(arguments: [
    (#"{"layers": [ {"id": "a", "type": "fill"}, }"#, "line 1, column 43", "invalid JSON"),
    (
      #"{"sources": {}, "layers": [{"id": "a", "type": "fill", "source": "nope"}]}"#, "layers[0].source",
      "does not declare"
    ),
    (
      #"{"sources": {"s": {"type": "geojson", "data": {}}}, "layers": [{"id": "a", "type": "fill", "source": "s", "paint": {"fill-color": ["interpolate", ["linear"], ["zoom"], 5]}}]}"#,
      "layers[0].paint.fill-color", "'interpolate' expects"
    ),
    (
      #"{"sources": {}, "layers": [{"id": "a", "type": "background", "paint": {"background-opacity": "half"}}]}"#,
      "layers[0].paint.background-opacity", "expected a number"
    ),
    (#"{"sources": {}, "layers": [{"type": "background"}]}"#, "layers[0].id", "expected a string"),
    (#"{"sources": {"s": {"type": "vector"}}, "layers": []}"#, "sources.s", "needs a url or tiles"),
  ])
  func errorsNameTheFieldPath(_ text: String, _ path: String, _ message: String) {
    do {
      _ = try parse(text)
      Issue.record("parsed")
    } catch {
      #expect(error.source == "s.json")
      #expect(error.path == path, "\(error)")
      #expect(error.message.contains(message), "\(error)")
    }
  }
}

enum TesseraGeoCoordinate {
  static func make(_ latitude: Double, _ longitude: Double) -> Coordinate {
    Coordinate(latitude: latitude, longitude: longitude)
  }
}

@Suite struct ZoomBlendTests {
  static func property(_ json: String, name: String = "line-width") throws -> PropertyValue {
    let spec = try #require(PropertySpec.byLayerType[.line]?[name])
    return try PropertyValue.parse(try JSONParser.parse(Array(json.utf8)), spec: spec, path: "paint.\(name)")
  }

  @Test func blendWeightsFollowTheZoomCurve() throws {
    let linear = try ZoomBlendTests.property(#"["interpolate", ["linear"], ["zoom"], 0, ["get", "w"], 10, 5]"#)
    #expect(abs(linear.zoomInterpolationFactor(zoom: 3.25, lower: 3, upper: 4) - 0.25) < 1e-12)
    let exponential = try ZoomBlendTests.property(
      #"["interpolate", ["exponential", 2], ["zoom"], 0, ["get", "w"], 10, 5]"#)
    #expect(abs(exponential.zoomInterpolationFactor(zoom: 3.5, lower: 3, upper: 4) - (2.0.squareRoot() - 1)) < 1e-12)
    let stepped = try ZoomBlendTests.property(#"["step", ["zoom"], ["get", "w"], 5, 2]"#)
    #expect(stepped.zoomInterpolationFactor(zoom: 3.5, lower: 3, upper: 4) == 0)
    // Outside the tile's zoom pair the weight is clamped.
    #expect(linear.zoomInterpolationFactor(zoom: 9, lower: 3, upper: 4) == 1)
  }

  @Test func zoomAndPropertyFunctionsBlendLinearlyOverZoom() throws {
    // MapLibre's conversion: categorical over the property, linear over zoom.
    let composite = try ZoomBlendTests.property(
      #"{"property": "p", "type": "categorical", "stops": [[{"zoom": 0, "value": 1}, 1], [{"zoom": 1, "value": 1}, 4]]}"#
    )
    struct Feature: StyleFeature {
      func property(_ key: String) -> StyleValue? { key == "p" ? .number(1) : nil }
      var properties: [String: StyleValue] { ["p": .number(1)] }
      var geometryTypeName: String { "LineString" }
      var identifier: StyleValue? { nil }
    }
    #expect(composite.number(zoom: 0.5, feature: Feature()) == 2.5)
    #expect(composite.zoomInterpolationFactor(zoom: 0.5, lower: 0, upper: 1) == 0.5)
  }
}

/// The light anchored to the viewport turns with the bearing as MapLibre Native turns it (its
/// in-place matrix product uses the turned x for y), so buildings are lit the same at any
/// bearing as there (compared side by side with the peer in Tools/bench/scenarios).
@Suite struct StyleLightTests {
  @Test func viewportLightTurnsAsMapLibreNative() {
    let light = StyleLight()
    let base = light.direction(bearing: 0)
    // Radial 1.15, azimuth 210° (+90°), polar 30°.
    #expect(abs(base.x - 0.2875) < 1e-4 && abs(base.y + 0.49797) < 1e-4 && abs(base.z - 0.99593) < 1e-4)
    for bearing in [30.0, 90, 180, 250, 320] {
      let angle = bearing * .pi / 180
      let x = cos(angle) * base.x - sin(angle) * base.y
      let y = sin(angle) * x + cos(angle) * base.y
      let turned = light.direction(bearing: bearing)
      #expect(abs(turned.x - x) < 1e-12 && abs(turned.y - y) < 1e-12 && turned.z == base.z, "bearing \(bearing)")
    }
    var anchored = StyleLight()
    anchored.anchoredToViewport = false
    #expect(anchored.direction(bearing: 250) == base)
  }
}
