import Foundation
import Tessera
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// `--ground-overlay`, `--tile-overlay`, `--heatmap`, `--my-location`, `--traffic` and
/// `--visible`: each becomes the scene field it stands for, so flags and scenes share one
/// reader and its errors.
enum OverlayKindFlags {
  /// The keys each flag's spec may hold after its first part, by option.
  static let keys: [String: [String]] = [
    "ground-overlay": ["bounds", "at", "anchor", "zoom", "bearing", "opacity", "z"],
    "tile-overlay": ["opacity", "size", "z"],
    "heatmap": ["radius", "opacity", "intensity", "weight", "z"],
    "my-location": ["accuracy", "heading"],
    "traffic": ["layer", "attribute"],
  ]

  /// `IMAGE,bounds=S:W:N:E` or `IMAGE,at=LAT:LNG[,zoom=Z][,anchor=X:Y]`, with `[,bearing=DEG]
  /// [,opacity=X][,z=N]`.
  static func groundOverlay(_ text: String) throws(UsageError) -> JSONValue {
    let parts = MarkerFlag.parts(text)
    var fields = JSONObject()
    fields["image"] = .string(absolute(parts[0]))
    for part in parts.dropFirst() {
      let (key, value) = try pair(part, option: "ground-overlay")
      switch key {
      case "bounds": fields["bounds"] = .array(try numbers(value, count: 4, option: "ground-overlay bounds"))
      case "at": fields["position"] = .array(try numbers(value, count: 2, option: "ground-overlay at"))
      case "anchor": fields["anchor"] = .array(try numbers(value, count: 2, option: "ground-overlay anchor"))
      case "zoom": fields["zoomLevel"] = .number(try ValueParsers.number(value, option: "ground-overlay zoom"))
      case "bearing": fields["bearing"] = .number(try ValueParsers.number(value, option: "ground-overlay bearing"))
      case "opacity": fields["opacity"] = .number(try ValueParsers.number(value, option: "ground-overlay opacity"))
      case "z": fields["zIndex"] = .number(try ValueParsers.number(value, option: "ground-overlay z"))
      default: throw UsageError("--ground-overlay: unknown key '\(key)' in '\(text)'")
      }
    }
    guard (fields["bounds"] == nil) != (fields["position"] == nil) else {
      throw UsageError("--ground-overlay: expected IMAGE,bounds=S:W:N:E or IMAGE,at=LAT:LNG, found '\(text)'")
    }
    return .object(fields)
  }

  /// `TEMPLATE_OR_URL[,opacity=X][,size=PX][,z=N]`.
  static func tileOverlay(_ text: String) throws(UsageError) -> JSONValue {
    let parts = MarkerFlag.parts(text)
    var fields = JSONObject()
    fields["source"] = .string(parts[0].contains("://") ? parts[0] : absolute(parts[0]))
    for part in parts.dropFirst() {
      let (key, value) = try pair(part, option: "tile-overlay")
      switch key {
      case "opacity": fields["opacity"] = .number(try ValueParsers.number(value, option: "tile-overlay opacity"))
      case "size": fields["tileSize"] = .number(try ValueParsers.number(value, option: "tile-overlay size"))
      case "z": fields["zIndex"] = .number(try ValueParsers.number(value, option: "tile-overlay z"))
      default: throw UsageError("--tile-overlay: unknown key '\(key)' in '\(text)'")
      }
    }
    return .object(fields)
  }

  /// `FILE.geojson[,radius=PT][,opacity=X][,intensity=X][,weight=PROPERTY][,z=N]`.
  static func heatmap(_ text: String) throws(UsageError) -> JSONValue {
    let parts = MarkerFlag.parts(text)
    var fields = JSONObject()
    fields["geojson"] = .string(absolute(parts[0]))
    for part in parts.dropFirst() {
      let (key, value) = try pair(part, option: "heatmap")
      switch key {
      case "radius", "opacity", "intensity":
        fields[key] = .number(try ValueParsers.number(value, option: "heatmap \(key)"))
      case "weight": fields["weightProperty"] = .string(value)
      case "z": fields["zIndex"] = .number(try ValueParsers.number(value, option: "heatmap z"))
      default: throw UsageError("--heatmap: unknown key '\(key)' in '\(text)'")
      }
    }
    return .object(fields)
  }

  /// `LAT,LNG[,accuracy=M][,heading=DEG]`.
  static func myLocation(_ text: String) throws(UsageError) -> JSONValue {
    let parts = MarkerFlag.parts(text)
    guard parts.count >= 2 else { throw UsageError("--my-location: expected LAT,LNG[,accuracy=M][,heading=DEG]") }
    var fields = JSONObject()
    fields["position"] = .array(
      try ValueParsers.numbers(parts[0] + "," + parts[1], count: 2, option: "my-location", form: "LAT,LNG").map {
        .number($0)
      })
    for part in parts.dropFirst(2) {
      let (key, value) = try pair(part, option: "my-location")
      guard key == "accuracy" || key == "heading" else {
        throw UsageError("--my-location: unknown key '\(key)' in '\(text)'")
      }
      fields[key] = .number(try ValueParsers.number(value, option: "my-location \(key)"))
    }
    return .object(fields)
  }

  /// `SOURCE[,layer=NAME][,attribute=NAME]`: a `.geojson`/`.json` file, or vector tiles.
  static func traffic(_ text: String) throws(UsageError) -> TrafficLayer {
    let parts = MarkerFlag.parts(text)
    var layer = "traffic"
    var attribute = "congestion"
    for part in parts.dropFirst() {
      let (key, value) = try pair(part, option: "traffic")
      switch key {
      case "layer": layer = value
      case "attribute": attribute = value
      default: throw UsageError("--traffic: unknown key '\(key)' in '\(text)'")
      }
    }
    let source = parts[0]
    if source.hasSuffix(".geojson") || source.hasSuffix(".json") {
      return TrafficLayer(data: .geoJSON(path: absolute(source)), attribute: attribute)
    }
    return TrafficLayer(
      data: .vectorTiles(url: source.contains("://") ? source : absolute(source), sourceLayer: layer),
      attribute: attribute)
  }

  /// `LAT,LNG|LAT,LNG…` (the Static Maps API's `visible=`).
  static func visible(_ text: String) throws(UsageError) -> [Coordinate] {
    try text.split(separator: "|").map { part throws(UsageError) in
      try ValueParsers.coordinate(String(part), option: "visible")
    }
  }

  private static func pair(_ part: String, option: String) throws(UsageError) -> (String, String) {
    let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
    guard pieces.count == 2, !pieces[1].isEmpty else {
      throw UsageError("--\(option): expected key=value, found '\(part)'")
    }
    guard keys[option]?.contains(pieces[0]) ?? false else {
      throw UsageError("--\(option): unknown key '\(pieces[0])' in '\(part)'")
    }
    return (pieces[0], pieces[1])
  }

  private static func numbers(_ text: String, count: Int, option: String) throws(UsageError) -> [JSONValue] {
    try ValueParsers.numbers(
      text.replacingOccurrences(of: ":", with: ","), count: count, option: option,
      form: Array(repeating: "N", count: count).joined(separator: ":")
    ).map { .number($0) }
  }

  private static func absolute(_ path: String) -> String {
    Scene.absolutePath(path, against: FileManager.default.currentDirectoryPath)
  }
}
