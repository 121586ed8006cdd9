import Foundation
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import Tessera
@testable import TesseraData
@testable import TesseraStyle

/// Every number a user or a data source hands Tessera may be ±1e300, ±infinity, NaN, −0, 2^63
/// or just beyond Int32: each is range checked, clamped or refused with a message; none traps
/// (a trap would take the test process down with it).
@Suite struct HostileNumberTests {
  static let scene: JSONValue = try! JSONParser.parse(
    #"""
    {"size": {"width": 64, "height": 48}, "scale": 2, "padding": {"top": 4, "left": 2, "bottom": 3, "right": 1},
     "camera": {"latitude": 43.7, "longitude": 7.4, "zoom": 12, "bearing": 30, "viewingAngle": 40},
     "minZoom": 1, "maxZoom": 20, "maxTilt": 70, "markerAppear": 0.5, "mapType": "none",
     "cameraTargetBounds": [7, 43, 8, 44], "updates": ["zoomBy:1", "scrollBy:3,4"],
     "markers": [{"position": [43.7, 7.4], "zIndex": 3, "rotation": 10, "opacity": 0.5, "groundAnchor": [0.5, 1]}],
     "animation": {"to": {"latitude": 43.71, "longitude": 7.41, "zoom": 13, "bearing": 5, "viewingAngle": 10},
                   "duration": 0.5, "fps": 4}}
    """#)

  /// Scenes: parsed, their camera worked out, their markers loaded, or refused with a message.
  @Test func scenesWithHostileNumbersAreReadOrRefused() throws {
    var accepted = 0
    var refused = 0
    for variant in HostileNumbers.variants(of: HostileNumberTests.scene) {
      do {
        let scene = try Scene.parse(variant, path: "/tmp/hostile.json")
        _ = try scene.mapState()
        if let markers = scene.markerFields {
          let cursor = JSONCursor(root: ["markers": markers], source: scene.path)["markers"]
          for marker in try SceneMarkers.load(cursor, access: scene.access) { _ = marker.zIndex }
        }
        if let animation = scene.animation { _ = try animation.animation(from: try scene.mapState()) }
        accepted += 1
      } catch {
        #expect(!"\(error)".isEmpty)
        refused += 1
      }
    }
    #expect(accepted > 0 && refused > 50, "accepted \(accepted), refused \(refused)")
  }

  static let style: JSONValue = try! JSONParser.parse(
    #"""
    {"version": 8, "sources": {
       "g": {"type": "geojson", "maxzoom": 14, "data": {"type": "FeatureCollection", "features": [
         {"type": "Feature", "id": 7, "properties": {"i": 1, "w": 2, "h": 30},
          "geometry": {"type": "Point", "coordinates": [7.41, 43.72]}},
         {"type": "Feature", "properties": {"i": 0, "w": 3, "h": 10},
          "geometry": {"type": "Polygon", "coordinates": [[[7.40, 43.70], [7.43, 43.70], [7.43, 43.73], [7.40, 43.70]]]}}]}},
       "v": {"type": "vector", "tiles": ["missing/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 14, "tileSize": 512}},
     "layers": [
       {"id": "b", "type": "background", "paint": {"background-color": "#88aacc", "background-opacity": 0.9}},
       {"id": "f", "type": "fill", "source": "g", "minzoom": 1, "maxzoom": 22,
        "paint": {"fill-color": ["interpolate", ["linear"], ["zoom"], 5, "red", 15, "blue"], "fill-opacity": 0.8,
                  "fill-translate": [2, 3]}},
       {"id": "l", "type": "line", "source": "g",
        "paint": {"line-width": ["at", ["to-number", ["get", "i"]], ["literal", [1, 4]]], "line-offset": 1,
                  "line-dasharray": [2, 1], "line-blur": ["*", ["get", "w"], 0.5]},
        "layout": {"line-miter-limit": 3}},
       {"id": "c", "type": "circle", "source": "g",
        "paint": {"circle-radius": ["+", ["get", "w"], 2], "circle-stroke-width": 1,
                  "circle-color": ["rgba", ["get", "w"], 20, 30, 1]}},
       {"id": "e", "type": "fill-extrusion", "source": "g",
        "paint": {"fill-extrusion-height": ["get", "h"], "fill-extrusion-base": 0, "fill-extrusion-opacity": 0.7}}]}
    """#)

  /// Styles (and the GeoJSON inside them): parsed and drawn, or refused with a message; data
  /// of one feature never stops the render.
  @Test func stylesWithHostileNumbersDrawOrAreRefused() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let camera = try Camera(latitude: 43.715, longitude: 7.415, zoom: 13.5, bearing: 20, viewingAngle: 30)
    let map = try Map(options: MapOptions(width: 32, height: 24, camera: camera, mapType: .none), device: device)
    var drawn = 0
    var refused = 0
    for variant in HostileNumbers.variants(of: HostileNumberTests.style) {
      do {
        let style = try Style.parse(variant, source: "hostile style")
        for layer in style.layers {
          for property in layer.properties.values { _ = property.evaluate(zoom: 12) }
        }
        try map.setStyle(style, name: "hostile", dataRoot: "/tmp")
        _ = try map.snapshot()
        drawn += 1
      } catch {
        #expect(!"\(error)".isEmpty)
        refused += 1
      }
    }
    #expect(drawn > 100 && refused > 10, "drawn \(drawn), refused \(refused)")
  }

  /// `["at", …]` and arithmetic with hostile feature properties evaluate to the property's
  /// default instead of trapping.
  @Test func expressionsOverHostileFeatureDataFallBack() throws {
    let style = try Style.parse(
      Array(
        #"{"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}}, "layers": [{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": ["at", ["get", "i"], ["literal", [1, 2]]], "circle-blur": ["/", 1, ["get", "i"]]}}]}"#
          .utf8))
    let layer = try #require(style.layers.first)
    struct Feature: StyleFeature {
      let value: Double
      func property(_ key: String) -> StyleValue? { .number(value) }
      var properties: [String: StyleValue] { ["i": .number(value)] }
      var geometryTypeName: String { "Point" }
      var identifier: StyleValue? { nil }
    }
    for value in HostileNumbers.values {
      let radius = layer.value(CircleProperties.radius, zoom: 3, feature: Feature(value: value))
      #expect(radius == 5 || radius == 2 || radius == 1, "radius \(radius) for i = \(value)")
      _ = layer.value(CircleProperties.blur, zoom: 3, feature: Feature(value: value))
    }
    #expect(StyleValue.javaScriptNumber(1e20) == "100000000000000000000")
    #expect(StyleValue.javaScriptNumber(-9.5e18) == "-9500000000000000000")
  }

  /// TileJSON and MBTiles metadata: zooms and tile sizes out of range are ignored with a
  /// message the style's warnings carry.
  @Test func metadataWithHostileNumbersIsIgnoredWithAMessage() throws {
    let seed: JSONValue = [
      "minzoom": 0, "maxzoom": 14, "tileSize": 256, "bounds": [7, 43, 8, 44], "center": [7.4, 43.7, 12],
      "vector_layers": [["id": "water", "minzoom": 0, "maxzoom": 14]],
    ]
    for variant in HostileNumbers.variants(of: seed) {
      guard case .object(let object) = variant else { continue }
      let metadata = TileJSON.metadata(from: object, format: .mvt)
      #expect(metadata.minZoom >= 0 && metadata.maxZoom <= TileJSON.maximumZoom && metadata.minZoom <= metadata.maxZoom)
      #expect(metadata.tileSize.map { (16...4096).contains($0) } ?? true)
    }
    let hostile = TileJSON.metadata(from: JSONObject([("maxzoom", 1e300), ("minzoom", "-3")]), format: .mvt)
    #expect(hostile.maxZoom == 22 && hostile.minZoom == 0)
    #expect(hostile.problems.count == 2 && hostile.problems.contains { $0.contains("maxzoom 1e+300") })
  }

  /// Hostile numbers on the command line end in a message and exit status 1 or 2.
  @Test func viewsTooLargeForAnyIntegerAreRefused() throws {
    for (width, scale) in [(1e20, 1.0), (64, 1e20), (9_223_372_036_854_775_808, 1), (1e23, 1), (64, 1e300)] {
      #expect(throws: GeoError.self) { try Viewport(width: width, height: 10, scale: scale) }
    }
    #expect(throws: GeoError.self) {
      try Viewport(width: 100, height: 100, padding: EdgeInsets(top: 0, left: 60, bottom: 0, right: 40))
    }
    #expect(throws: GeoError.self) {
      try MapOptions(width: 100, height: 100).mapState(applying: [
        .fit(CoordinateBounds(south: 43, west: 7, north: 44, east: 8), padding: 60)
      ])
    }
  }
}
