import Foundation
import Tessera
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// The flags of the overlay kinds (``OverlayKinds``: `--ground-overlay`, `--tile-overlay`,
/// `--heatmap`, as each kind's ``OverlayFlagSyntax`` describes them), each becoming the scene
/// entry it stands for, so flags and scenes share one reader and its errors; and
/// `--my-location`, `--traffic` and `--visible`, read into the values they stand for
/// (`LocationFix`, `TrafficLayer`, coordinates), the fix checked as the scene's `myLocation`
/// field is.
enum OverlayKindFlags {
  /// The kinds' flags, in the registry's order, with their scene fields.
  static var kindFlags: [(field: String, syntax: OverlayFlagSyntax)] {
    OverlayKinds.sceneFields.compactMap { kind in kind.commandLine.map { (kind.sceneField, $0) } }
  }

  /// The keys each flag's spec may hold after its first part, by option.
  static var keys: [String: [String]] {
    var keys: [String: [String]] = ["my-location": ["accuracy", "heading"], "traffic": ["layer", "attribute"]]
    for (_, syntax) in kindFlags { keys[syntax.option] = syntax.keys.map(\.key) + ["title"] }
    return keys
  }

  /// The scene fields the kinds' flags among `arguments` stand for.
  static func sceneFields(_ arguments: ParsedArguments) throws(UsageError) -> JSONObject {
    var fields = JSONObject()
    for (field, syntax) in kindFlags {
      let entries = try arguments.allValues(syntax.option).map { text throws(UsageError) in
        try entry(text, syntax: syntax)
      }
      if !entries.isEmpty { fields[field] = .array(entries) }
    }
    return fields
  }

  /// The scene entry `text` (`FIRST[,key=value]…`) writes by `syntax`.
  static func entry(_ text: String, syntax: OverlayFlagSyntax) throws(UsageError) -> JSONValue {
    let option = syntax.option
    let parts = try FlagSpec.parts(text, option: option)
    var fields = JSONObject()
    fields[syntax.firstField] = try value(parts[0], syntax.first, option: option)
    for part in parts.dropFirst() {
      let (key, text) = try pair(part, option: option)
      // Every overlay's scene entry takes a title (what accessibility output reads).
      if key == "title" {
        fields["title"] = .string(text)
        continue
      }
      guard let spec = syntax.keys.first(where: { $0.key == key }) else {
        throw UsageError("--\(option): unknown key '\(key)' in '\(part)'")
      }
      fields[spec.field] = try value(text, spec.value, option: "\(option) \(key)")
    }
    if !syntax.exactlyOneOf.isEmpty, syntax.exactlyOneOf.filter({ fields[$0] != nil }).count != 1 {
      throw UsageError("--\(option): expected \(syntax.forms), found '\(text)'")
    }
    return .object(fields)
  }

  /// `text` as `kind` says (`option` names it in errors).
  private static func value(_ text: String, _ kind: OverlayFlagSyntax.Value, option: String) throws(UsageError)
    -> JSONValue
  {
    switch kind {
    case .file: return .string(absolute(text))
    case .fileOrURL: return .string(text.contains("://") ? text : absolute(text))
    case .number: return .number(try ValueParsers.number(text, option: option))
    case .numbers(let count): return .array(try numbers(text, count: count, option: option))
    case .text: return .string(text)
    }
  }

  /// `LAT,LNG[,accuracy=M][,heading=DEG]`: the fix, checked as the scene's `myLocation` field
  /// is when the map is made (``LocationFix/check(source:)``).
  static func myLocation(_ text: String) throws(UsageError) -> LocationFix {
    let parts = try FlagSpec.parts(text, option: "my-location")
    guard parts.count >= 2 else { throw UsageError("--my-location: expected LAT,LNG[,accuracy=M][,heading=DEG]") }
    let position = try ValueParsers.numbers(
      parts[0] + "," + parts[1], count: 2, option: "my-location", form: "LAT,LNG")
    var fix = LocationFix(coordinate: Coordinate(latitude: position[0], longitude: position[1]))
    for part in parts.dropFirst(2) {
      let (key, value) = try pair(part, option: "my-location")
      let number = try ValueParsers.number(value, option: "my-location \(key)")
      switch key {
      case "accuracy": fix.horizontalAccuracy = number
      case "heading": fix.heading = number
      default: throw UsageError("--my-location: unknown key '\(key)' in '\(text)'")
      }
    }
    return fix
  }

  /// `SOURCE[,layer=NAME][,attribute=NAME]`: a `.geojson`/`.json` file, or vector tiles.
  static func traffic(_ text: String) throws(UsageError) -> TrafficLayer {
    let parts = try FlagSpec.parts(text, option: "traffic")
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
