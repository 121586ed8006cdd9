import Foundation
import Testing

@testable import Tessera
@testable import TesseraService

/// A scene's camera and fitting set in code are refused as the fields holding the same values
/// are, with the same messages, so a request built as values answers as it did when it was read
/// as a scene.
@Suite struct SceneValueCheckTests {
  static func message(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  static func read(_ fields: JSONValue) -> String {
    message { _ = try Scene.parse(fields, path: "request", access: .inlineOnly()) }
  }

  static func built(_ change: (inout Scene) throws -> Void) -> String {
    message {
      var scene = Scene(options: MapOptions(), dataRoot: "", name: "request")
      try change(&scene)
    }
  }

  /// `fields` read as a scene and `change` made to a scene in code are refused with one message.
  static func expectAlike(
    _ fields: JSONValue, _ change: (inout Scene) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let expected = read(fields)
    #expect(expected != "accepted", sourceLocation: sourceLocation)
    #expect(built(change) == expected, sourceLocation: sourceLocation)
  }

  @Test func codeAndFieldsAreRefusedAlike() {
    let endless: JSONValue = .number(.infinity)
    Self.expectAlike(["visible": [[0, endless]]]) {
      try $0.setVisible([Coordinate(latitude: 0, longitude: .infinity)])
    }
    Self.expectAlike(["visible": [[0, 1], [0, 5000]]]) {
      try $0.setVisible([Coordinate(latitude: 0, longitude: 1), Coordinate(latitude: 0, longitude: 5000)])
    }
    Self.expectAlike(["fit": ["padding": 5000]]) { try $0.fitCamera(fit: Scene.Fit(padding: 5000)) }
    Self.expectAlike(["fit": ["maxZoom": 30]]) { try $0.fitCamera(fit: Scene.Fit(maxZoom: 30)) }
    let notANumber: JSONValue = .number(.nan)
    Self.expectAlike(["camera": ["latitude": 0, "longitude": notANumber, "zoom": 3]]) {
      try $0.placeCamera(latitude: 0, longitude: .nan, zoom: 3)
    }
    let below: JSONValue = .number(-.infinity)
    Self.expectAlike(["camera": ["latitude": 0, "longitude": 0, "zoom": 3, "bearing": below]]) {
      try $0.placeCamera(latitude: 0, longitude: 0, zoom: 3, bearing: -.infinity)
    }
  }

  /// A my-location fix given as a value (`tessera render --my-location`) is refused as the
  /// scene's `myLocation` field holding it is when the map is made.
  @Test func myLocationFixesAreRefusedAsTheFieldIs() throws {
    func expectAlike(_ field: JSONValue, _ fix: LocationFix, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let scene = try Scene.parse(["myLocation": field], path: "request", access: .inlineOnly())
      let expected = Self.message { _ = try SceneContent(scene: scene) }
      #expect(expected != "accepted", sourceLocation: sourceLocation)
      #expect(Self.message { try fix.check(source: "request") } == expected, sourceLocation: sourceLocation)
    }
    let endless: JSONValue = .number(.infinity)
    try expectAlike(["position": [95, 0]], LocationFix(coordinate: Coordinate(latitude: 95, longitude: 0)))
    try expectAlike(
      ["position": [0, 0], "accuracy": -1],
      LocationFix(coordinate: Coordinate(latitude: 0, longitude: 0), horizontalAccuracy: -1))
    try expectAlike(
      ["position": [0, 0], "heading": endless],
      LocationFix(coordinate: Coordinate(latitude: 0, longitude: 0), heading: .infinity))
    #expect(
      Self.message { try LocationFix(coordinate: Coordinate(latitude: 1, longitude: 2)).check(source: "x") }
        == "accepted")
  }

  /// tileserver-gl's bounds with a longitude that is not a number: the answer names the field
  /// as the scene reader did.
  @Test func tileserverBoundsThatAreNotFinite() {
    let refused = Self.message {
      _ = try TileserverQuery(
        style: .mapType(.normal), camera: "inf,0,10,1", size: "100x100.png",
        request: ServiceReaders.request(target: "/x"), configuration: ServiceConfiguration())
    }
    #expect(refused.contains("request: visible[0][1]: expected a finite number, found inf"), "\(refused)")
  }
}
