import Foundation
import Tessera
import TesseraJSON
import TesseraNumbers

/// tileserver-gl's sprite endpoints: `/styles/{id}/sprite[@2x].{json,png}` for a style whose
/// `sprite` is one sheet, `/styles/{id}/sprite/{name}[@2x].{json,png}` for each sheet of a
/// style with several. The files are the ones the style's `sprite` names; a request only
/// picks among them (sheet, 1x or 2x, index or image) and never names a path.
extension ServiceRouter {
  /// The largest sprite file served, bytes.
  static let largestSpriteFile = 16 << 20

  /// The variants a sprite file name may end with, and their content types.
  static let spriteSuffixes: [(suffix: String, mimeType: String)] = [
    ("@2x.json", "application/json"), ("@2x.png", "image/png"), (".json", "application/json"), (".png", "image/png"),
  ]

  func serveSprite(_ request: HTTPRequest) -> HTTPResponse {
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let id = parts[1]
    guard case .file(let path, let dataRoot)? = configuration.styles[id] else {
      return .text(404, configuration.styles[id] == nil ? "no style '\(id)'" : "style '\(id)' has no sprite")
    }
    let name: String
    let sheet: String?
    switch parts.count {
    case 3:
      (name, sheet) = (parts[2], nil)
    case 4 where parts[2] == "sprite":
      (name, sheet) = (parts[3], "")
    default:
      return .text(404, "no such endpoint: \(request.path)")
    }
    guard let variant = Self.spriteSuffixes.first(where: { name.hasSuffix($0.suffix) }) else {
      return .text(404, "a sprite file is {name}[@2x].json or {name}[@2x].png")
    }
    let stem = String(name.dropLast(variant.suffix.count))
    let sheets = Self.spriteSheets(stylePath: path, dataRoot: dataRoot)
    let chosen =
      sheet == nil
      ? (stem == "sprite" && sheets.count == 1 ? sheets.first : nil) : sheets.first { $0.id == stem }
    guard let chosen else { return .text(404, "style '\(id)' has no sprite '\(HeaderText.clean(stem))'") }
    guard let location = chosen.path else {
      return .text(404, "style '\(id)' loads its sprite from another server")
    }
    let file = location + variant.suffix
    guard let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int,
      size <= Self.largestSpriteFile, let data = FileManager.default.contents(atPath: file)
    else { return .text(404, "style '\(id)' has no \(variant.suffix.dropFirst()) sprite file") }
    return Self.imageResponse(Array(data), mimeType: variant.mimeType, ifNoneMatch: request.header("If-None-Match"))
  }

  /// The sheets of a style's `sprite`: each id (`default` for a single sheet) with the local
  /// path its files start with (nil when it is fetched from another server).
  static func spriteSheets(stylePath: String, dataRoot: String) -> [(id: String, path: String?)] {
    guard let bytes = FileManager.default.contents(atPath: stylePath),
      let style = try? JSONParser.parse(Array(bytes)).object
    else { return [] }
    func local(_ url: String) -> String? {
      guard url.hasPrefix("file://") else { return nil }
      return Scene.absolutePath(String(url.dropFirst("file://".count)), against: dataRoot)
    }
    switch style["sprite"] {
    case .string(let url)?:
      return [("default", local(url))]
    case .array(let sheets)?:
      return sheets.compactMap { sheet in
        guard let id = sheet["id"]?.string, let url = sheet["url"]?.string else { return nil }
        return (id, local(url))
      }
    default:
      return []
    }
  }
}
