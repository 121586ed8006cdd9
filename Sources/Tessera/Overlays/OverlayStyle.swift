import Foundation
import Synchronization
import TesseraGeo
import TesseraImage
import TesseraJSON

/// The overlays of a map as a style drawn over the map's own: one GeoJSON source holding every
/// overlay's geometry (properties carry colour, width and run) and, per run of overlays, a
/// fill layer and a line layer (MapLibre's `fill` and `line`, antialiased, round joins and
/// caps). Overlays are taken in drawing order (zIndex, then the order added); a run ends
/// where an overlay's fill would have to cover an earlier overlay's line.
enum OverlayStyle {
  /// A new source name per document, so tiles decoded for earlier overlays are never reused.
  private static let generations = Atomic<Int>(0)

  static func document(_ overlays: [MapOverlay]) -> JSONValue {
    let source = "tessera-overlays-\(generations.add(1, ordering: .relaxed).newValue)"
    var features: [JSONValue] = []
    var run = 0
    var runHasLines = false
    func feature(_ geometry: JSONValue, kind: String, color: Color, width: Double = 0) {
      features.append([
        "type": "Feature", "geometry": geometry,
        "properties": [
          "run": .number(Double(run)), "kind": .string(kind), "color": .string(css(color)), "width": .number(width),
        ],
      ])
    }
    for overlay in overlays {
      var fill: [[Coordinate]]?
      var fillColor = Color.transparent
      var lines: [[Coordinate]] = []
      var lineColor = Color.transparent
      var lineWidth = 0.0
      switch overlay {
      case let polyline as Polyline:
        lines = [polyline.geodesic ? OverlayGeometry.geodesic(polyline.path) : polyline.path]
        (lineColor, lineWidth) = (polyline.strokeColor, polyline.strokeWidth)
      case let polygon as Polygon:
        let rings = ([polygon.path] + polygon.holes).map { ring in
          let closed = ring.first == ring.last ? ring : ring + ring.prefix(1)
          return polygon.geodesic ? OverlayGeometry.geodesic(closed) : closed
        }
        fill = rings
        (fillColor, lineColor, lineWidth) = (polygon.fillColor, polygon.strokeColor, polygon.strokeWidth)
        lines = rings
      case let circle as Circle:
        let ring = OverlayGeometry.circle(center: circle.position, radius: circle.radius)
        fill = [ring]
        lines = [ring]
        (fillColor, lineColor, lineWidth) = (circle.fillColor, circle.strokeColor, circle.strokeWidth)
      default:
        continue
      }
      if let rings = fill, fillColor.alpha > 0, rings.first.map({ $0.count >= 4 }) == true {
        if runHasLines {
          run += 1
          runHasLines = false
        }
        feature(["type": "Polygon", "coordinates": .array(rings.map(positions))], kind: "fill", color: fillColor)
      }
      if lineWidth > 0, lineColor.alpha > 0 {
        for line in lines where line.count >= 2 {
          feature(
            ["type": "LineString", "coordinates": positions(line)], kind: "line", color: lineColor, width: lineWidth)
          runHasLines = true
        }
      }
    }
    var layers: [JSONValue] = []
    for index in 0...run {
      let inRun: JSONValue = ["==", ["get", "run"], .number(Double(index))]
      layers.append([
        "id": .string("overlay-fill-\(index)"), "type": "fill", "source": .string(source),
        "filter": ["all", inRun, ["==", ["get", "kind"], "fill"]],
        "paint": ["fill-color": ["to-color", ["get", "color"]]],
      ])
      layers.append([
        "id": .string("overlay-line-\(index)"), "type": "line", "source": .string(source),
        "filter": ["all", inRun, ["==", ["get", "kind"], "line"]],
        "layout": ["line-join": "round", "line-cap": "round"],
        "paint": ["line-color": ["to-color", ["get", "color"]], "line-width": ["get", "width"]],
      ])
    }
    return [
      "version": 8, "name": "overlays",
      "sources": .object(
        JSONObject([
          (
            source,
            ["type": "geojson", "tolerance": 0, "data": ["type": "FeatureCollection", "features": .array(features)]]
          )
        ])),
      "layers": .array(layers),
    ]
  }

  /// GeoJSON positions ([longitude, latitude]) of `coordinates`.
  private static func positions(_ coordinates: [Coordinate]) -> JSONValue {
    .array(coordinates.map { [.number($0.longitude), .number($0.latitude)] })
  }

  /// `color` as CSS `rgba(…)`.
  static func css(_ color: Color) -> String {
    func channel(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
    return
      "rgba(\(channel(color.red)), \(channel(color.green)), \(channel(color.blue)), \(min(max(color.alpha, 0), 1)))"
  }
}
