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
