import Foundation
import Tessera
import TesseraJSON
import TesseraNumbers

/// The scene of a `POST /render` body (the CLI's scene format), held to what cannot reach the
/// server's files: fields that name files or URLs (a style, data sources, icons, pictures,
/// GeoJSON files, map ID registries, tile overlays, traffic) are refused with 400, so a body
/// can draw only the configured data with inline content. The map types' data are the
/// server's own.
enum SceneBody {
  /// Top-level fields that name files or URLs.
  static let fileFields: Set<String> = [
    "style", "dataRoot", "tiles", "imagery", "dem", "mapIDs", "traffic", "tileOverlays", "groundOverlays",
    "geojsonOverlays",
  ]
  /// Fields inside markers, heatmaps and polylines that name files.
  static let nestedFileFields: Set<String> = ["icon", "infoWindow", "geojson", "icons", "stamp"]

  static func scene(_ body: [UInt8], configuration: ServiceConfiguration) throws(ServiceError) -> Scene {
    func bad(_ reason: String) -> ServiceError { ServiceError(status: 400, reason: reason) }
    let root: JSONValue
    do {
      root = try JSONParser.parse(body)
    } catch {
      throw bad("the body is not JSON: \(error)")
    }
    guard case .object(var fields) = root else { throw bad("the body must be a scene object") }
    for key in fields.keys where fileFields.contains(key) {
      throw bad("field '\(key)' names files; a POST /render scene takes inline content only")
    }
    if case .string? = fields["mapStyle"] { throw bad("field 'mapStyle' must hold the rules inline") }
    if let found = firstNestedFileField(in: fields) { throw bad("field '\(found)' names a file; use inline content") }
    var data = JSONObject()
    configuration.applyData(to: &data)
    for (key, value) in data.pairs { fields[key] = value }
    if fields["attribution"] == nil { fields["attribution"] = .bool(configuration.attribution) }
    var scene: Scene
    do {
      scene = try Scene.parse(.object(fields), path: configuration.requestPath)
    } catch {
      throw bad("\(error)".replacingOccurrences(of: "\n", with: " "))
    }
    guard scene.options.width <= Double(configuration.maxWidth),
      scene.options.height <= Double(configuration.maxHeight),
      scene.options.scale <= configuration.maxScale
    else {
      throw bad(
        "size and scale must stay within \(configuration.maxWidth)x\(configuration.maxHeight) at \(configuration.maxScale)x"
      )
    }
    scene.options.tileLoadTimeout = configuration.deadline
    return scene
  }

  /// The first file-naming field inside `markers`, `heatmaps` or `polylines` entries.
  private static func firstNestedFileField(in fields: JSONObject) -> String? {
    func search(_ value: JSONValue, path: String) -> String? {
      switch value {
      case .object(let object):
        for (key, child) in object.pairs {
          if nestedFileFields.contains(key) { return "\(path).\(key)" }
          if let found = search(child, path: "\(path).\(key)") { return found }
        }
      case .array(let elements):
        for (index, child) in elements.enumerated() {
          if let found = search(child, path: "\(path)[\(index)]") { return found }
        }
      default:
        break
      }
      return nil
    }
    for key in ["markers", "heatmaps", "polylines"] {
      if let value = fields[key], let found = search(value, path: key) { return found }
    }
    return nil
  }
}
