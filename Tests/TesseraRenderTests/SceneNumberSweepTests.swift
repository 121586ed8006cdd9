import Foundation
import TesseraData
import TesseraTestSupport
import Testing

@testable import Tessera

/// The checked-number sweep of the scene format (scene files, `render --batch` jobs and the
/// service's POST /render bodies): samples that together hold every field the scene readers
/// know (their own field lists; a field added to a reader and not to a sample fails
/// ``theSamplesHoldEveryFieldTheReadersKnow()``), and every number in them — numbers, and
/// numbers written inside text — replaced in turn by 1e308, −1e308, 5e-324, −0, 2^63, NaN, ±∞
/// and a number beyond range. Each variant is read, its map made and drawn: a clear error or an
/// image, never a signal (a trap stops the test process) or a hang (the watchdog stops it).
@Suite(.serialized) struct SceneNumberSweepTests {
  /// A folder with the files the samples name.
  static let folder: String = {
    let folder = NSTemporaryDirectory() + "tessera-sweep-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder + "/ids", withIntermediateDirectories: true)
    let png = try! PNGCodec.encode(RGBAImage(width: 8, height: 8, fill: Color(r: 200, g: 40, b: 40)))
    for name in ["icon.png", "icon@2x.png", "stamp.png", "ground.png", "bubble.png"] {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(png))
    }
    let points = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"icon": "a", "weight": 2, "rotation": 15, "zIndex": 2, "title": "A"},
         "geometry": {"type": "Point", "coordinates": [7.42, 43.73]}},
        {"type": "Feature", "properties": {"color": "blue", "opacity": 0.5},
         "geometry": {"type": "Point", "coordinates": [7.43, 43.74]}}]}
      """#
    _ = FileManager.default.createFile(atPath: folder + "/points.geojson", contents: Data(points.utf8))
    let shapes = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"stroke": "#ff0000", "stroke-width": 3, "congestion": "heavy"},
         "geometry": {"type": "LineString", "coordinates": [[7.41, 43.72], [7.44, 43.75]]}},
        {"type": "Feature", "properties": {"fill": "#00ff00", "fill-opacity": 0.4},
         "geometry": {"type": "Polygon", "coordinates": [[[7.41, 43.72], [7.43, 43.72], [7.43, 43.74], [7.41, 43.72]]]}}]}
      """#
    _ = FileManager.default.createFile(atPath: folder + "/shapes.geojson", contents: Data(shapes.utf8))
    let style = #"""
      {"version": 8, "sources": {"shapes": {"type": "geojson", "data": "shapes.geojson"}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#223344"}},
                  {"id": "fill", "type": "fill", "source": "shapes",
                   "paint": {"fill-color": ["case", ["boolean", ["feature-state", "hot"], false], "red", "green"]}}]}
      """#
    _ = FileManager.default.createFile(atPath: folder + "/style.json", contents: Data(style.utf8))
    _ = FileManager.default.createFile(atPath: folder + "/ids/dusk.json", contents: Data(style.utf8))
    // The golden tests' IMDF venue.
    try? FileManager.default.createSymbolicLink(
      atPath: folder + "/venue", withDestinationPath: PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue"))
    return folder
  }()

  static let camera: JSONValue = [
    "latitude": 43.73, "longitude": 7.42, "zoom": 13.5, "bearing": 20, "viewingAngle": 35,
  ]

  /// The samples: one drawing a map type with everything on it, one drawing a style file, one a
  /// map ID.
  static let samples: [(name: String, scene: JSONValue)] = [
    (
      "map type",
      [
        "name": "sweep", "description": "every field", "size": ["width": 48, "height": 32], "scale": 2,
        "camera": camera, "padding": ["top": 2, "left": 1, "bottom": 3, "right": 4],
        "background": "rgba(10, 20, 30, 0.5)",
        "tileGrid": true, "msaa": false, "minZoom": 1, "maxZoom": 20, "maxTilt": 70,
        "cameraTargetBounds": [7, 43, 8, 44], "updates": ["zoomBy:0.5", "scrollBy:3,4", "target:43.731,7.421"],
        "sky": "#88aaff",
        "mapType": "normal", "colorScheme": "dark", "language": "fr",
        "mapStyle": [
          ["featureType": "road", "elementType": "geometry", "stylers": [["weight": 2], ["lightness": 10]]]
        ],
        "selectedMarker": 0, "attribution": "© sweep", "scaleBar": true, "buildings": true, "markerAppear": 0.5,
        "tiles": "demo://city?seed=3", "imagery": "imagery/{z}/{x}/{y}.png", "dem": "dem/{z}/{x}/{y}.png",
        "traffic": ["geojson": "shapes.geojson", "sourceLayer": "traffic", "attribute": "congestion"],
        "indoor": ["imdf": "venue", "level": 1],
        "markers": [
          [
            "position": [43.731, 7.421], "title": "Title", "snippet": "Snippet", "icon": "icon.png", "size": "mid",
            "label": "A", "groundAnchor": [0.5, 1], "rotation": 30, "flat": false, "opacity": 0.8, "zIndex": 3,
            "appearAnimation": "pop", "collisionBehavior": "required", "tappable": true, "selected": true,
            "infoWindowAnchor": [0.5, 0], "infoWindow": "bubble.png",
          ],
          ["latitude": 43.732, "longitude": 7.422, "color": "hsl(120, 50%, 40%)", "label": "7", "size": "small"],
          [
            "geojson": "points.geojson", "icons": ["a": "icon.png"], "iconProperty": "icon",
            "groundAnchor": [0.5, 0.5],
          ],
        ],
        "polylines": [
          [
            "path": [[43.72, 7.41], [43.74, 7.43], [43.75, 7.40]], "color": "#ff000080", "width": 3, "geodesic": true,
            "zIndex": 2, "title": "Route", "accessibilityLabel": "Route, 3 km",
            "spans": [["color": "red", "segments": 1.5], ["gradient": ["red", "blue"], "segments": 0.5]],
            "pattern": ["dash:5", "gap:3", "dot"],
          ],
          [
            "encoded": "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "width": 2,
            "spans": [["stamp": "stamp.png", "segments": 2]],
            "dashes": ["colors": ["red", "blue"], "lengths": [500, 250], "kind": "rhumb"],
          ],
        ],
        "polygons": [
          [
            "path": [[43.72, 7.41], [43.72, 7.43], [43.74, 7.43]],
            "holes": [[[43.725, 7.415], [43.725, 7.42], [43.73, 7.42]]],
            "fillColor": "rgba(0, 0, 255, 0.3)", "strokeColor": "navy", "strokeWidth": 2, "geodesic": false,
            "zIndex": 1,
          ]
        ],
        "circles": [
          [
            "center": [43.73, 7.42], "radius": 300, "fillColor": "#0f08", "strokeColor": "black", "strokeWidth": 1.5,
            "zIndex": 4,
          ]
        ],
        "groundOverlays": [
          ["image": "ground.png", "bounds": [43.72, 7.41, 43.73, 7.42], "bearing": 10, "opacity": 0.7, "zIndex": 5],
          ["image": "ground.png", "position": [43.735, 7.425], "zoomLevel": 16, "anchor": [0.5, 0.5]],
        ],
        "tileOverlays": [["source": "overlay/{z}/{x}/{y}.png", "tileSize": 256, "opacity": 0.5, "zIndex": 6]],
        "heatmaps": [
          [
            "points": [[43.73, 7.42, 2], [43.731, 7.421]], "radius": 20,
            "gradient": [[0.2, "blue"], [1, "red"]], "opacity": 0.6, "intensity": 1.5, "zIndex": 7,
          ],
          ["geojson": "points.geojson", "weightProperty": "weight"],
        ],
        "geojsonOverlays": [["geojson": "shapes.geojson", "zIndex": 8]],
        "myLocation": ["position": [43.733, 7.423], "accuracy": 80, "heading": 45],
        "visible": [[43.72, 7.41], [43.75, 7.44]],
        "fit": ["padding": 12, "maxZoom": 17, "wholeZoom": false],
        "animation": [
          "to": ["latitude": 43.74, "longitude": 7.43, "zoom": 14, "bearing": 40, "viewingAngle": 20],
          "duration": 0.5, "fps": 4, "easing": "linear",
        ],
      ]
    ),
    (
      "style",
      [
        "size": ["width": 40, "height": 30], "camera": camera, "dataRoot": ".", "style": "style.json",
        "featureStates": [["source": "shapes", "id": 7, "state": ["hot": true, "level": 3]]],
        "animation": ["update": "zoomBy:1.5", "duration": 0.25, "fps": 8],
      ]
    ),
    (
      "map ID",
      [
        "size": ["width": 40, "height": 30], "camera": camera, "mapID": "dusk", "mapIDs": "ids", "mapType": "normal",
        "animation": ["bearing": 90, "duration": 0.25, "fps": 8],
      ]
    ),
  ]

  /// Every field list of the scene readers, by where it applies.
  static var readerLists: [(place: String, fields: Set<String>)] {
    var lists: [(String, Set<String>)] = [("scene", Scene.knownFields)]
    for (field, fields) in Scene.nestedFields { lists.append((field, fields)) }
    lists.append(("markers[]", SceneMarkers.knownMarkerFields))
    lists.append(("marker sets", SceneMarkers.knownSetFields))
    for (field, fields) in SceneOverlays.entryFields { lists.append(("\(field)[]", fields)) }
    lists.append(("spans[]", SceneOverlays.spanFields))
    lists.append(("dashes", SceneOverlays.dashFields))
    return lists
  }

  @Test func theSamplesHoldEveryFieldTheReadersKnow() {
    // Every key the samples use anywhere, by the key of the object holding it.
    var used = Set<String>()
    for sample in Self.samples {
      for (path, _) in JSONLeaves.all(sample.scene) {
        for case .key(let key) in path { used.insert(key) }
      }
    }
    for (place, fields) in Self.readerLists {
      let missing = fields.subtracting(used)
      #expect(missing.isEmpty, "add \(missing.sorted()) (\(place)) to a sample of SceneNumberSweepTests")
    }
  }

  @Test func everySampleReadsAndDraws() throws {
    let device = try GLDevice(gpu: .surfaceless)
    for sample in Self.samples {
      let scene = try Scene.parse(sample.scene, path: Self.folder + "/\(sample.name).json")
      let map = try Map(scene: scene, device: device)
      let snapshot = try map.snapshot()
      #expect(snapshot.image.width > 0, "\(sample.name)")
      #expect(scene.warnings.isEmpty, "\(sample.name): \(scene.warnings)")
    }
  }

  /// Reads, makes and draws one variant; the error's text, or nil when it drew.
  static func outcome(_ text: String, name: String, device: GLDevice, loader: TileLoader) -> String? {
    Watchdog.run(name, seconds: 60) {
      do {
        let scene = try Scene.parse(Array(text.utf8), path: folder + "/sweep.json")
        let map = try Map(scene: scene, device: device, tileLoader: loader)
        _ = try map.snapshot()
        if let animation = scene.animation { _ = try animation.animation(from: try scene.mapState()) }
        return nil
      } catch {
        return "\(error)"
      }
    }
  }

  @Test(arguments: [0, 1, 2])
  func everyNumberOfTheSceneFormatIsCheckedOrDrawn(sample index: Int) throws {
    let (name, document) = Self.samples[index]
    let device = try GLDevice(gpu: .surfaceless)
    let loader = TileLoader(cache: TileCache(budget: 64 << 20))
    var drawn = 0
    var refused = 0
    var unnamed: [String] = []
    for (path, value) in JSONLeaves.all(document) {
      let field = JSONLeaves.describe(path)
      var variants: [(shown: String, text: String)] = []
      switch value {
      case .number:
        variants = HostileNumbers.sweepJSON.map { ($0, JSONLeaves.text(document, replacing: path, withLiteral: $0)) }
      case .string(let text):
        variants = HostileNumbers.textVariants(of: text).map { variant in
          (variant.text, JSONLeaves.replacing(path[...], in: document, with: .string(variant.text)).serialized())
        }
      default:
        continue
      }
      for (shown, text) in variants {
        if let message = Self.outcome(text, name: "\(name): \(field) = \(shown)", device: device, loader: loader) {
          refused += 1
          // The message names the field (or the object holding it).
          let keys = path.compactMap { step -> String? in
            if case .key(let key) = step { return key }
            return nil
          }
          if !keys.suffix(2).contains(where: { message.contains($0) }) && !message.contains("invalid JSON") {
            unnamed.append("\(field) = \(shown): \(message)")
          }
        } else {
          drawn += 1
        }
      }
    }
    print("scene sweep '\(name)': \(drawn) variants drawn, \(refused) refused")
    #expect(drawn > 0 && refused > 0)
    #expect(unnamed.isEmpty, "errors that do not name their field:\n\(unnamed.joined(separator: "\n"))")
  }
}
