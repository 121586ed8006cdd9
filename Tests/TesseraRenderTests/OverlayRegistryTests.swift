import Foundation
import Synchronization
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraStyle
import TesseraTestSupport
import Testing

@testable import Tessera

/// The overlay kinds' registry: complete, each kind read from its scene field into its own
/// class and drawn; errors naming the field; typed scene content drawing the bytes of the same
/// scene written as JSON.
@Suite struct OverlayRegistryTests {
  static let camera: JSONValue = ["latitude": 0, "longitude": 0, "zoom": 5]

  /// One entry of each scene field holding overlays, with the pictures and files it names.
  static func samples() throws -> (entries: [String: JSONValue], provided: [String: [UInt8]]) {
    let picture = try PNGCodec.encode(RGBAImage(width: 8, height: 8, fill: Color(r: 0, g: 200, b: 0)))
    let points: JSONValue = [
      "type": "FeatureCollection",
      "features": [
        ["type": "Feature", "geometry": ["type": "Point", "coordinates": [0.5, 0.5]], "properties": ["weight": 2]],
        [
          "type": "Feature", "geometry": ["type": "LineString", "coordinates": [[0, 0], [1, 1]]], "properties": [:],
        ],
      ],
    ]
    let entries: [String: JSONValue] = [
      "polylines": ["path": [[0, 0], [1, 1]], "color": "#ff0000", "width": 3],
      "polygons": ["path": [[0, 0], [0, 1], [1, 1]], "fillColor": "#00ff00"],
      "circles": ["center": [0, 0], "radius": 50_000, "fillColor": "#0000ff"],
      "groundOverlays": ["image": "picture", "bounds": [-1, -1, 0, 0]],
      "tileOverlays": ["source": "memory://{z}/{x}/{y}"],
      "heatmaps": ["points": [[0.5, 0.5, 2]]],
      "geojsonOverlays": ["geojson": "points"],
    ]
    return (entries, ["picture": picture, "points": Array(points.serialized().utf8)])
  }

  @Test func everyKindHasItsOwnSceneFieldAndTheSceneKnowsIt() throws {
    let names = OverlayKinds.sceneFieldNames
    #expect(Set(names).count == names.count, "scene fields named twice: \(names)")
    #expect(OverlayKinds.all.count == 6)
    let classes = OverlayKinds.all.map { kind in ObjectIdentifier(kind.overlayClass) }
    #expect(Set(classes).count == classes.count, "two kinds draw one class")
    for field in OverlayKinds.sceneFields {
      #expect(!field.sceneField.isEmpty)
      #expect(Scene.knownFields.contains(field.sceneField), "\(field.sceneField) is not a scene field")
      #expect(field.entryFields.contains("zIndex"), "\(field.sceneField) entries have no zIndex")
      #expect(SceneOverlays.entryFields[field.sceneField] == field.entryFields.union(SceneOverlays.commonEntryFields))
    }
    // Every sample names a field of the registry, and every field has a sample.
    #expect(Set(try Self.samples().entries.keys) == Set(names))
  }

  /// `field`'s sample entry as a scene of 64 × 64 points.
  static func sampleScene(_ field: any SceneOverlayField.Type) throws -> Scene {
    let (entries, provided) = try Self.samples()
    let entry = try #require(entries[field.sceneField])
    let fields: JSONObject = [
      "size": ["width": 64, "height": 64], "camera": Self.camera, "mapType": "none", "background": "#102030",
      field.sceneField: [entry],
    ]
    // Tile sources are refused to inline-only scenes: tile overlays are read from a file.
    let access: ResourceAccess? = field == TileOverlayKind.self ? nil : .inlineOnly(providing: provided)
    return try Scene.parse(.object(fields), path: "/tmp/request.json", access: access)
  }

  @Test func eachKindIsReadIntoItsClassCopiedAndDrawn() throws {
    for kind in OverlayKinds.all {
      let content = try SceneContent(scene: try Self.sampleScene(kind))
      #expect(content.overlays.count == 1, "\(kind.sceneField)")
      let overlay = try #require(content.overlays.first)
      #expect(ObjectIdentifier(overlay.kind) == ObjectIdentifier(kind), "\(kind.sceneField) read as \(overlay.kind)")
      #expect(ObjectIdentifier(type(of: overlay)) == ObjectIdentifier(kind.overlayClass))
      // A copy covers what the original covers and counts its points alike.
      let copy = kind.copy(any: overlay)
      #expect(copy !== overlay && copy.zIndex == overlay.zIndex && copy.pointCount == overlay.pointCount)
      #expect(kind.coordinates(any: copy) == kind.coordinates(any: overlay))
      // The kind's layers make a style the renderer reads.
      var style = OverlayStyleBuilder(pixelRatio: 1)
      kind.addLayers(any: overlay, to: &style)
      let document = style.finish()
      _ = try Style.parse(document, source: "overlays")
    }
  }

  /// Every scene field, read into values that are put into a scene made in code, draws the
  /// bytes the scene read from JSON draws.
  @Test func everyFieldRoundTripsThroughTypedValues() throws {
    for field in OverlayKinds.sceneFields {
      let scene = try Self.sampleScene(field)
      let fromJSON = try Map(scene: scene, gpu: .surfaceless).snapshot().image
      var typed = Scene(options: scene.options, name: "typed")
      typed.overlays = try SceneContent(scene: scene).overlays
      #expect(!typed.overlays.isEmpty, "\(field.sceneField)")
      let fromValues = try Map(scene: typed, gpu: .surfaceless).snapshot().image
      #expect(fromValues == fromJSON, "\(field.sceneField): values draw other bytes than the field")
      #expect(field == TileOverlayKind.self || !fromJSON.isUniform, "\(field.sceneField) draws nothing")
    }
  }

  @Test func readErrorsAreOverlayErrorsNamingTheField() throws {
    let cases: [(field: String, fields: JSONObject)] = [
      ("polylines[0].color", ["polylines": [["path": [[0, 0], [1, 1]], "color": "nope"]]]),
      ("polylines[0].encoded", ["polylines": [["encoded": "\u{1}"]]]),
      ("polylines[0].spans[0]", ["polylines": [["path": [[0, 0], [1, 1]], "spans": [["segments": 1]]]]]),
      ("polylines[0].pattern[0]", ["polylines": [["path": [[0, 0], [1, 1]], "pattern": ["dash"]]]]),
      ("polygons[0].path[1]", ["polygons": [["path": [[0, 0], [91, 0], [1, 1]]]]]),
      ("circles[0].center", ["circles": [["center": [0, 5000], "radius": 1]]]),
      ("groundOverlays[0].bounds", ["groundOverlays": [["image": "picture", "bounds": [1, 0, 0, 1]]]]),
      ("heatmaps[0].gradient[0]", ["heatmaps": [["points": [[0, 0]], "gradient": [[0.5]]]]]),
    ]
    let provided = try Self.samples().provided
    for (field, overlay) in cases {
      var fields: JSONObject = ["camera": Self.camera, "mapType": "none"]
      for (key, value) in overlay.pairs { fields[key] = value }
      do {
        let scene = try Scene.parse(.object(fields), path: "request", access: .inlineOnly(providing: provided))
        _ = try SceneContent(scene: scene)
        Issue.record("\(field): no error")
      } catch let error as OverlayError {
        #expect(error.field?.contains("request: \(field)") == true, "\(field): \(error)")
        #expect(error.description.hasPrefix("request: \(field)"), "\(error)")
      } catch {
        Issue.record("\(field): \(type(of: error)) \(error), expected an OverlayError")
      }
    }
  }

  @Test func aSceneOfTypedValuesDrawsTheBytesOfTheSameSceneInJSON() throws {
    let json: JSONObject = [
      "size": ["width": 96, "height": 80], "camera": Self.camera, "mapType": "none", "background": "#202020",
      "polylines": [["path": [[-1, -1], [1, 1.5]], "color": "#ff8000", "width": 4, "geodesic": true]],
      "polygons": [
        ["path": [[-1.5, 0.5], [-0.5, 0.5], [-1, 1.5]], "fillColor": "rgba(0, 128, 255, 0.5)", "zIndex": 2]
      ],
      "circles": [["center": [0.5, -1], "radius": 40_000, "fillColor": "#00ff00", "strokeWidth": 2]],
      "markers": [["position": [0.2, 0.3], "title": "here"]],
    ]
    let fromJSON = try Scene.parse(.object(json), path: "typed")
    var typed = Scene(options: fromJSON.options, name: "typed")
    let line = Polyline(path: [Coordinate(latitude: -1, longitude: -1), Coordinate(latitude: 1, longitude: 1.5)])
    line.strokeColor = Color(r: 255, g: 128, b: 0)
    line.strokeWidth = 4
    line.geodesic = true
    let area = Polygon(path: [
      Coordinate(latitude: -1.5, longitude: 0.5), Coordinate(latitude: -0.5, longitude: 0.5),
      Coordinate(latitude: -1, longitude: 1.5),
    ])
    area.fillColor = Color(red: 0, green: 128.0 / 255, blue: 1, alpha: 0.5)
    area.zIndex = 2
    let circle = Circle(position: Coordinate(latitude: 0.5, longitude: -1), radius: 40_000)
    circle.fillColor = Color(r: 0, g: 255, b: 0)
    circle.strokeWidth = 2
    typed.overlays = [line, area, circle]
    typed.markers = [Marker(position: Coordinate(latitude: 0.2, longitude: 0.3), title: "here")]
    // The scene keeps copies: changing a value afterwards does not change it.
    line.strokeWidth = 40
    #expect(typed.overlays.count == 3 && (typed.overlays[0] as? Polyline)?.strokeWidth == 4)
    let expected = try Map(scene: fromJSON, gpu: .surfaceless).snapshot().image
    let drawn = try Map(scene: typed, gpu: .surfaceless).snapshot().image
    #expect(drawn == expected, "typed values draw other bytes than the same scene in JSON")
    #expect(!expected.isUniform)
  }
}

extension OverlayRegistryTests {
  @Test func aRenderPoolDrawsTypedValuesOnItsThreadsAsAMapDoes() throws {
    var scene = Scene(
      options: MapOptions(
        width: 80, height: 64, camera: try Camera(latitude: 0, longitude: 0, zoom: 5), backgroundColor: .black,
        mapType: .none))
    let ring = Circle(position: Coordinate(latitude: 0.3, longitude: -0.4), radius: 60_000)
    ring.fillColor = Color(r: 0, g: 0, b: 255)
    let heat = HeatmapOverlay(points: [HeatmapOverlay.WeightedPoint(Coordinate(latitude: -0.5, longitude: 0.5))])
    scene.overlays = [ring, heat]
    scene.markers = [Marker(position: Coordinate(latitude: 0, longitude: 0))]
    let alone = try Map(scene: scene, gpu: .surfaceless).snapshot().image
    let pool = try RenderPool(threads: 2, gpu: .surfaceless)
    defer { pool.shutdown() }
    // Both threads draw from the one scene at once: each map gets its own copies.
    let images = Mutex<[RGBAImage]>([])
    let shared = scene
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      if let image = try? pool.render(shared).image { images.withLock { $0.append(image) } }
    }
    let drawn = images.withLock { $0 }
    #expect(drawn.count == 4)
    for image in drawn { #expect(image == alone) }
    #expect(!alone.isUniform)
  }

  @Test func kindsGiveTheirAccessibilityFrames() throws {
    let map = try OverlayTests.map(try Camera(latitude: 0, longitude: 0, zoom: 5))
    let line = Polyline(path: [Coordinate(latitude: -1, longitude: -1), Coordinate(latitude: 1, longitude: 1)])
    map.add(line)
    let frame = try #require(map.accessibilityFrame(of: line))
    // A line's frame holds its ends and half its width around them.
    let half = line.strokeWidth / 2
    for end in line.path {
      let point = try #require(map.projection.point(for: end))
      #expect(abs(point.x - half - frame.x) < 1e-6 || abs(point.x + half - (frame.x + frame.width)) < 1e-6)
    }
    #expect(frame.width > 10 && frame.height > 10)
    #expect(map.accessibilityFrame(of: TileOverlay(source: "memory://{z}/{x}/{y}")) == nil)
  }

  /// Overlays with a title are accessibility elements of a snapshot, below the markers, framed
  /// within the view; untitled ones and ones out of view are not.
  @Test func titledOverlaysAreAccessibilityElements() throws {
    let map = try OverlayTests.map(try Camera(latitude: 0, longitude: 0, zoom: 5))
    map.accessibilityElementsHidden = false
    let route = Polyline(path: [Coordinate(latitude: -1, longitude: -1), Coordinate(latitude: 1, longitude: 1)])
    route.title = "Route"
    let untitled = Polygon(path: [
      Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0.5, longitude: 0),
      Coordinate(latitude: 0.5, longitude: 0.5),
    ])
    let far = Circle(position: Coordinate(latitude: 40, longitude: 100), radius: 1000)
    far.title = "Far away"
    let zone = Circle(position: Coordinate(latitude: 0.5, longitude: -0.5), radius: 20_000)
    zone.title = "Zone"
    zone.zIndex = -1
    map.add(route)
    map.add(untitled)
    map.add(far)
    map.add(zone)
    map.add(Marker(position: Coordinate(latitude: 0, longitude: 0), title: "Pin"))
    let elements = try map.snapshot().accessibilityElements
    #expect(elements.map(\.title) == ["Zone", "Route", "Pin"])
    #expect(elements.map(\.isOverlay) == [true, true, false])
    let frame = try #require(map.accessibilityFrame(of: route))
    #expect(elements[1].frame.x == frame.x && elements[1].frame.width == frame.width)
    map.accessibilityElementsHidden = true
    #expect(try map.snapshot().accessibilityElements.isEmpty)
  }
}

extension OverlayKind {
  /// The kind's overlay class.
  static var overlayClass: AnyClass { Overlay.self }
}
