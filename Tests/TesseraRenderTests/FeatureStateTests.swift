import Foundation
import Tessera
import TesseraConformance
import TesseraImage
import TesseraJSON
import TesseraStyle
import Testing

/// Feature state: set and removed at run time through the map or a scene, read by
/// `["feature-state", key]` paint, shown from the next frame.
@Suite struct FeatureStateTests {
  @Test func statesMergeAndAreRemovedByValueOrWhole() {
    var states = FeatureStates()
    let key = FeatureStates.Key(source: "s", sourceLayer: "poi", id: "7")
    states.set(["hover": .bool(true), "size": .number(2)], for: key)
    states.set(["size": .number(3)], for: key)
    #expect(states.state(of: key) == ["hover": .bool(true), "size": .number(3)])
    #expect(states.hasStates(source: "s", sourceLayer: "poi") && !states.hasStates(source: "s", sourceLayer: nil))
    states.remove("hover", for: key)
    #expect(states.state(of: key) == ["size": .number(3)])
    states.remove(for: key)
    #expect(states.isEmpty)
  }

  @Test func expressionsReadTheFeaturesState() throws {
    struct Feature: StyleFeature {
      var properties: [String: StyleValue] { [:] }
      var geometryTypeName: String { "Point" }
      var identifier: StyleValue? { .number(1) }
      var state: [String: StyleValue]
      func property(_ key: String) -> StyleValue? { nil }
    }
    let expression = try ExpressionParser(path: "p").parse(
      try JSONParser.parse(#"["coalesce", ["feature-state", "color"], "black"]"#))
    #expect(!expression.isFeatureConstant && expression.readsFeatureState)
    let red = Feature(state: ["color": .string("red")])
    #expect(try expression.evaluate(EvaluationContext(zoom: 1, feature: red)) == .string("red"))
    #expect(try expression.evaluate(EvaluationContext(zoom: 1, feature: Feature(state: [:]))) == .string("black"))
    #expect(throws: StyleError.self) {
      try ExpressionParser(path: "p").parse(try JSONParser.parse(#"["feature-state"]"#))
    }
  }

  static let style = #"""
    {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": 1, "properties": {}, "geometry": {"type": "Point", "coordinates": [-10, 0]}},
      {"type": "Feature", "id": "2", "properties": {}, "geometry": {"type": "Point", "coordinates": [10, 0]}}]}}},
     "layers": [{"id": "c", "type": "circle", "source": "p",
       "paint": {"circle-radius": 6, "circle-color": ["coalesce", ["feature-state", "color"], "black"]}}]}
    """#

  static func map() throws -> Map {
    let map = try Map(
      options: MapOptions(
        width: 96, height: 32, camera: try Camera(latitude: 0, longitude: 0, zoom: 2), backgroundColor: .transparent,
        mapType: .none),
      gpu: .surfaceless)
    try map.setStyle(try Style.parse(Array(style.utf8)), name: "states", dataRoot: "/")
    return map
  }

  @Test func settingAndRemovingStateRecoloursTheFeatureInTheNextFrame() throws {
    let map = try FeatureStateTests.map()
    func colours() throws -> (left: (UInt8, UInt8, UInt8, UInt8), right: (UInt8, UInt8, UInt8, UInt8)) {
      let image = try map.snapshot().image
      // The points at ±10° lie ±28 points from the centre at zoom 2 (a 1,024-point world).
      return (image.pixel(x: 20, y: 16), image.pixel(x: 76, y: 16))
    }
    var (left, right) = try colours()
    #expect(left == (0, 0, 0, 255) && right == (0, 0, 0, 255))
    map.setFeatureState(["color": .string("red")], source: "p", id: "1")
    map.setFeatureState(["color": .string("#0000ff")], source: "p", id: "2")
    (left, right) = try colours()
    #expect(left == (255, 0, 0, 255) && right == (0, 0, 255, 255))
    map.removeFeatureState(source: "p", id: "1", key: "color")
    (left, right) = try colours()
    #expect(left == (0, 0, 0, 255) && right == (0, 0, 255, 255))
    // Another source's state, or a source layer the GeoJSON source lacks, changes nothing.
    map.setFeatureState(["color": .string("red")], source: "q", id: "2")
    map.setFeatureState(["color": .string("red")], source: "p", sourceLayer: "x", id: "2")
    #expect(try colours().right == (0, 0, 255, 255))
    #expect(map.featureStates.state(of: FeatureStates.Key(source: "p", id: "2")) == ["color": .string("#0000ff")])
  }

  @Test func scenesSetFeatureStates() throws {
    let scene = try Scene.parse(
      Array(
        #"{"featureStates": [{"source": "p", "id": 1, "state": {"color": "red", "n": 2}}, {"source": "v", "sourceLayer": "poi", "id": "9", "state": {}}]}"#
          .utf8), path: "/tmp/s.json")
    #expect(scene.featureStates.count == 2)
    #expect(scene.featureStates[0].key == FeatureStates.Key(source: "p", id: "1"))
    #expect(scene.featureStates[0].values == ["color": .string("red"), "n": .number(2)])
    #expect(scene.featureStates[1].key == FeatureStates.Key(source: "v", sourceLayer: "poi", id: "9"))
    for (bad, message) in [
      (#"{"featureStates": [{"source": "p", "id": 1.5, "state": {}}]}"#, "featureStates[0].id"),
      (#"{"featureStates": [{"source": "p", "id": 1, "state": 3}]}"#, "featureStates[0].state"),
      (#"{"featureStates": [{"source": "p", "id": 1, "state": {}, "colour": 1}]}"#, "featureStates[0].colour"),
      (#"{"featureStates": {"source": "p"}}"#, "featureStates"),
    ] {
      do {
        _ = try Scene.parse(Array(bad.utf8), path: "/tmp/s.json")
        Issue.record("must be refused: \(bad)")
      } catch {
        #expect("\(error)".contains(message), "\(error)")
      }
    }
  }

  @Test func promotedPropertiesNameFeatures() throws {
    let style = #"""
      {"version": 8, "sources": {"p": {"type": "geojson", "promoteId": "code", "data": {"type": "FeatureCollection", "features": [
        {"type": "Feature", "id": 5, "properties": {"code": "left"}, "geometry": {"type": "Point", "coordinates": [-10, 0]}},
        {"type": "Feature", "id": 6, "properties": {"code": 1.5}, "geometry": {"type": "Point", "coordinates": [10, 0]}}]}}},
       "layers": [{"id": "c", "type": "circle", "source": "p",
         "paint": {"circle-radius": 6, "circle-color": ["coalesce", ["feature-state", "color"], "black"]}}]}
      """#
    let map = try FeatureStateTests.map()
    try map.setStyle(try Style.parse(Array(style.utf8)), name: "promoted", dataRoot: "/")
    map.setFeatureState(["color": .string("red")], source: "p", id: "left")
    map.setFeatureState(["color": .string("blue")], source: "p", id: "1.5")
    map.setFeatureState(["color": .string("lime")], source: "p", id: "5")  // the id no longer names it
    let image = try map.snapshot().image
    #expect(image.pixel(x: 20, y: 16) == (255, 0, 0, 255))
    #expect(image.pixel(x: 76, y: 16) == (0, 0, 255, 255))
  }

  @Test func geoJSONSourceOptionsAreReadAndChecked() throws {
    func source(_ options: String) throws -> (StyleSource?, [String]) {
      let style = try Style.parse(
        Array(
          #"{"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}\#(options)}}, "layers": []}"#
            .utf8), source: "o.json")
      return (style.sources["g"], style.warnings)
    }
    let (read, warnings) = try source(
      #", "buffer": 64, "tolerance": 1, "generateId": true, "promoteId": {"roads": "ref"}, "filter": ["==", ["get", "kind"], "a"], "cluster": true"#
    )
    #expect(read?.buffer == 64 && read?.tolerance == 1 && read?.generateIds == true)
    #expect(read?.promotedIDs == ["roads": "ref"] && read?.filter != nil)
    #expect(warnings.contains { $0.contains("sources.g.cluster: clustering is not supported") })
    for (bad, message) in [
      (#", "buffer": 600"#, "sources.g.buffer"), (#", "tolerance": -1"#, "sources.g.tolerance"),
      (#", "promoteId": 5"#, "sources.g.promoteId"), (#", "filter": ["==", 1]"#, "sources.g.filter"),
      (#", "generateId": "yes""#, "sources.g.generateId"),
    ] {
      do {
        _ = try source(bad)
        Issue.record("must be refused: \(bad)")
      } catch {
        #expect("\(error)".contains(message), "\(error)")
      }
    }
  }

  /// The conformance runner applies a case's operations to the map before its snapshot.
  @Test func conformanceOperationsMoveTheCameraAndSetStates() throws {
    let map = try FeatureStateTests.map()
    let operations = try JSONParser.parse(
      #"[["wait"], ["setZoom", 2.5], ["setFeatureState", {"source": "p", "id": 2}, {"color": "red"}], ["idle"], ["removeFeatureState", {"source": "p", "id": "2"}, "color"], ["setFeatureState", {"source": "p", "id": "1"}, {"color": "blue"}]]"#
    )
    try ConformanceRunner.apply(operations.array ?? [], to: map, path: "case")
    #expect(abs(map.camera.zoom - 3.5) < 1e-9, "MapLibre zoom 2.5 is camera zoom 3.5")
    #expect(map.featureStates.state(of: FeatureStates.Key(source: "p", id: "2")).isEmpty)
    #expect(map.featureStates.state(of: FeatureStates.Key(source: "p", id: "1")) == ["color": .string("blue")])
    for bad in [#"[["setZoom"]]"#, #"[["setFeatureState", {"id": 1}, {}]]"#, #"[5]"#] {
      #expect(throws: ConformanceError.self) {
        try ConformanceRunner.apply(try JSONParser.parse(bad).array ?? [], to: map, path: "case")
      }
    }
  }
}
