import Foundation
import TesseraJSON
import TesseraNumbers
import TesseraStyle

/// Traffic from the application's own data (`trafficEnabled` with a supplied source): lines
/// with a congestion or speed attribute drawn as Google draws traffic, green, orange, red and
/// dark red, beside the road (offset to the right of the line's direction), over the roads
/// and under the labels and markers.
///
/// The attribute holds either a congestion level (`low`, `moderate`, `heavy`, `severe`, as in
/// Mapbox Traffic data, or `green`, `orange`, `red`, `darkred`) or a number, the speed as a
/// share of free flow (0…1: from 0.75 green, from 0.5 orange, from 0.25 red, below dark red).
/// Features without it are not drawn.
public struct TrafficLayer: Sendable, Equatable {
  public enum Data: Sendable, Equatable {
    /// A GeoJSON file of lines.
    case geoJSON(path: String)
    /// A vector tile source (`mbtiles://`, `pmtiles://`, a TileJSON or a `{z}/{x}/{y}`
    /// template) and the layer holding the traffic lines.
    case vectorTiles(url: String, sourceLayer: String)
  }

  public var data: Data
  /// The feature property with the congestion level or speed ratio.
  public var attribute: String

  public init(data: Data, attribute: String = "congestion") {
    self.data = data
    self.attribute = attribute
  }

  /// Google's traffic colours, free flow first.
  static let colors = ["#1ea362", "#ffa300", "#e34133", "#8f1a13"]
}

enum TrafficStyle {
  static let sourceID = "tessera-traffic"

  /// `style` with the traffic lines inserted under its first symbol or 3D building layer (or
  /// on top when it has none); unchanged without traffic.
  static func adding(_ traffic: TrafficLayer?, to style: Style) throws -> Style {
    guard let traffic else { return style }
    var source: JSONObject = ["type": "geojson", "tolerance": 0.375]
    var layer: JSONObject = [
      "id": .string(sourceID), "type": "line", "source": .string(sourceID),
      "filter": ["has", .string(traffic.attribute)],
      "layout": ["line-join": "round", "line-cap": "round"],
    ]
    switch traffic.data {
    case .geoJSON(let path):
      source["data"] = .string(path)
    case .vectorTiles(let url, let sourceLayer):
      source = ["type": "vector"]
      source[url.contains("{z}") ? "tiles" : "url"] = url.contains("{z}") ? [.string(url)] : .string(url)
      layer["source-layer"] = .string(sourceLayer)
    }
    let value: JSONValue = ["get", .string(traffic.attribute)]
    let colors = TrafficLayer.colors.map { JSONValue.string($0) }
    let byLevel: JSONValue = [
      "match", ["to-string", value], ["low", "green"], colors[0], ["moderate", "orange"], colors[1],
      ["heavy", "red"], colors[2], ["severe", "darkred"], colors[3], "rgba(0, 0, 0, 0)",
    ]
    let bySpeed: JSONValue = ["step", value, colors[3], 0.25, colors[2], 0.5, colors[1], 0.75, colors[0]]
    // Zooms are MapLibre's (Google's minus one).
    layer["paint"] = [
      "line-color": ["case", ["==", ["typeof", value], "number"], bySpeed, byLevel],
      "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 10, 1.2, 14, 3, 17, 8],
      "line-offset": ["interpolate", ["exponential", 1.5], ["zoom"], 10, 0.6, 14, 2, 17, 6],
    ]
    var sources = JSONObject()
    sources[sourceID] = .object(source)
    let pieces = try Style.parse(
      ["version": 8, "sources": .object(sources), "layers": [.object(layer)]], source: "traffic")
    var style = style
    for (id, added) in pieces.sources { style.sources[id] = added }
    let index = style.layers.firstIndex { $0.type == .symbol || $0.type == .fillExtrusion } ?? style.layers.count
    style.layers.insert(contentsOf: pieces.layers, at: index)
    return style
  }
}
