import Foundation
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import Tessera

/// What a scene's fields may name is decided by the access its reader is given: with
/// inline-only access every field naming a file, a folder, a tile source or a URL is refused,
/// wherever it is written (at the top level, inside the `tessera` object that replaces fields, in
/// markers, overlays and spans), and the scene keeps that access for what is read when its map
/// is made.
@Suite struct SceneAccessTests {
  static let camera: JSONValue = ["latitude": 0, "longitude": 0, "zoom": 3]

  /// Every field of the scene format that names something outside the scene, with a value.
  static let namingFields: [(field: String, fields: JSONObject)] = [
    ("dataRoot", ["dataRoot": "/"]),
    ("style", ["style": "/etc/passwd"]),
    ("mapIDs", ["mapIDs": "/etc"]),
    ("mapStyle", ["mapStyle": "/etc/hostname"]),
    ("tiles", ["tiles": "mbtiles:///etc/shadow"]),
    ("imagery", ["imagery": "http://169.254.169.254/{z}/{x}/{y}.png"]),
    ("dem", ["dem": "/srv/dem"]),
    ("traffic.geojson", ["traffic": ["geojson": "/etc/passwd"]]),
    ("traffic.tiles", ["traffic": ["tiles": "http://10.0.0.1/{z}/{x}/{y}.pbf"]]),
    ("markers[0].icon", ["markers": [["position": [0, 0], "icon": "/etc/passwd"]]]),
    ("markers[0].infoWindow", ["markers": [["position": [0, 0], "infoWindow": "../secret.png"]]]),
    ("markers[0].geojson", ["markers": [["geojson": "/etc/passwd"]]]),
    ("markers[0].icons.a", ["markers": [["geojson": "x.geojson", "icons": ["a": "/etc/passwd"]]]]),
    ("markers.geojson", ["markers": ["geojson": "/etc/passwd"]]),
    (
      "polylines[0].spans[0].stamp",
      ["polylines": [["path": [[0, 0], [1, 1]], "spans": [["stamp": "/etc/passwd", "segments": 1]]]]]
    ),
    ("groundOverlays[0].image", ["groundOverlays": [["image": "%2e%2e/secret.png", "bounds": [0, 0, 1, 1]]]]),
    ("tileOverlays[0].source", ["tileOverlays": [["source": "http://169.254.169.254/{z}/{x}/{y}.png"]]]),
    ("heatmaps[0].geojson", ["heatmaps": [["geojson": "../points.geojson"]]]),
    ("geojsonOverlays[0].geojson", ["geojsonOverlays": [["geojson": "/etc/passwd"]]]),
  ]

  /// The scene read with inline-only access and its map made, or the error's text.
  static func outcome(_ fields: JSONObject) -> String {
    do {
      let scene = try Scene.parse(.object(fields), path: "request", access: .inlineOnly())
      _ = try Map(scene: scene, gpu: .surfaceless)
      return "accepted"
    } catch {
      return "\(error)"
    }
  }

  @Test(arguments: namingFields.map(\.field))
  func inlineOnlyScenesRefuseEveryFieldNamingSomethingOutside(_ field: String) {
    let named = Self.namingFields.first { $0.field == field }!.fields
    var plain: JSONObject = ["camera": Self.camera, "mapType": "none"]
    for (key, value) in named.pairs { plain[key] = value }
    // The same field handed over in the `tessera` object, which replaces the scene's own.
    let nested: JSONObject = ["camera": Self.camera, "mapType": "none", "tessera": .object(named)]
    for fields in [plain, nested] {
      let text = Self.outcome(fields)
      #expect(text.contains("may only hold inline content"), "\(field): \(text)")
      #expect(text.contains(field.split(separator: ".").last.map(String.init) ?? field), "\(field): \(text)")
    }
  }

  @Test func theSameFieldsAreReadWithLocalAccess() throws {
    // Local access reads them (here: missing files, so a 'cannot read' error rather than a refusal).
    let scene: JSONObject = [
      "camera": Self.camera, "mapType": "none", "markers": [["position": [0, 0], "icon": "no-such-icon.png"]],
    ]
    let folder = NSTemporaryDirectory()
    do {
      let read = try Scene.parse(.object(scene), path: folder + "/scene.json")
      _ = try Map(scene: read, gpu: .surfaceless)
      Issue.record("a missing icon was accepted")
    } catch {
      #expect("\(error)".contains("cannot read"), "\(error)")
      #expect(!"\(error)".contains("inline"), "\(error)")
    }
  }

  @Test func providedResourcesAreTheOnlyOnesAnInlineSceneReaches() throws {
    let green = try PNGCodec.encode(RGBAImage(width: 8, height: 8, fill: Color(r: 0, g: 200, b: 0)))
    let fields: JSONObject = [
      "size": ["width": 32, "height": 32], "camera": ["latitude": 0, "longitude": 0, "zoom": 5], "mapType": "none",
      "markers": [["position": [0, 0], "icon": "icon-0", "groundAnchor": [0.5, 0.5]]],
    ]
    let scene = try Scene.parse(.object(fields), path: "request", access: .inlineOnly(providing: ["icon-0": green]))
    let snapshot = try Map(scene: scene, gpu: .surfaceless).snapshot()
    #expect(snapshot.image.pixel(x: 16, y: 16) == (0, 200, 0, 255))
    // A name that is not provided is a file name, and refused.
    var other = fields
    other["markers"] = [["position": [0, 0], "icon": "icon-1"]]
    #expect(Self.outcome(other).contains("may only hold inline content"))
  }

  /// The scene readers reach files only through their access: no file API of their own.
  @Test func sceneReadersHaveNoFileAccessOfTheirOwn() throws {
    // The overlay kinds' readers are every file of their folders.
    let kinds = "Sources/Tessera/Overlays/Kinds"
    let kindFiles = try #require(FileManager.default.enumerator(atPath: PackagePaths.path(kinds)))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(kinds)/\($0)" }
    #expect(kindFiles.count >= OverlayKinds.all.count)
    let readers =
      [
        "Sources/Tessera/Scene.swift", "Sources/Tessera/SceneAnimation.swift",
        "Sources/Tessera/Markers/SceneMarkers.swift", "Sources/Tessera/Overlays/SceneOverlays.swift",
      ] + kindFiles
    for reader in readers {
      let text = try String(contentsOfFile: PackagePaths.path(reader), encoding: .utf8)
      // Scene.load reads the scene file itself, named by the caller, not by a field.
      let body = text.replacingOccurrences(
        of: "bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))", with: "")
      for api in ["FileManager.default.contents", "contentsOf", "contentsOfFile", "fopen(", "absolutePath("] {
        #expect(!body.contains(api), "\(reader) uses \(api): read through the scene's ResourceAccess")
      }
    }
  }
}
