import Foundation
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A parsed MapLibre style (spec version 8): sources, layers in drawing order, the style's own
/// camera, and the warnings parsing produced.
///
/// Errors (thrown): invalid JSON (with line and column), a layer without an id or type, a wrong
/// expression or value (naming the layer and property path), a layer using an undeclared
/// source. Warnings (collected): unknown layer types and properties, properties Tessera does
/// not draw yet. Which layer types are drawn is the renderer's business: it warns about the
/// layers it skips.
public struct Style: Sendable {
  package var name: String?
  package var sources: [String: StyleSource]
  package var layers: [StyleLayer]
  /// The style's camera: `center` [lng, lat], `zoom` (MapLibre zoom), `bearing`, `pitch`.
  package var center: Coordinate?
  package var zoom: Double?
  package var bearing: Double
  package var pitch: Double
  /// The light shading fill-extrusions.
  package var light: StyleLight
  /// The raw `metadata` object.
  package var metadata: JSONValue?
  /// Where the style's images come from: `sprite` as one URL (id `default`) or a list of
  /// `{"id", "url"}` (images of other ids are named `id:name`).
  package var sprites: [StyleSprite] = []
  /// The glyph PBF URL template (`{fontstack}`, `{range}`); nil: labels use local fonts.
  package var glyphs: String?
  package var warnings: [String]

  /// The most layers a style may have: each costs memory when the style is read and a draw per
  /// tile in every frame, so a style beyond it is refused rather than let grow without bound.
  package static let maximumLayers = 25_000

  /// Parses style JSON; `source` names it in errors.
  public static func parse(_ bytes: [UInt8], source: String = "style") throws(StyleError) -> Style {
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes)
    } catch {
      throw StyleError(
        source: source, path: "line \(error.line), column \(error.column)", message: "invalid JSON: \(error.message)")
    }
    return try parse(root, source: source)
  }

  /// Reads a style document already in memory as a JSON value (built in code, or parsed
  /// elsewhere); `source` names it in errors.
  public static func parse(_ root: JSONValue, source: String = "style") throws(StyleError) -> Style {
    do {
      return try Style(JSONCursor(root: root, source: source))
    } catch {
      var located = error
      located.source = source
      throw located
    }
  }

  /// Reads and parses a style file.
  public static func load(path: String) throws(StyleError) -> Style {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw StyleError(source: path, path: "file", message: "cannot read the style file")
    }
    return try parse(Array(data), source: path)
  }

  init(_ root: JSONCursor) throws(StyleError) {
    var warnings: [String] = []
    do {
      let version = try root["version"].number(default: 8)
      if version != 8 { warnings.append("version: style version \(JSONValue.format(version)) is read as version 8") }
      name = try root["name"].optionalString()
      var sources: [String: StyleSource] = [:]
      if root["sources"].exists {
        for (id, cursor) in try root["sources"].members() {
          if let source = try StyleSource.parse(cursor, id: id, warnings: &warnings) { sources[id] = source }
        }
      }
      self.sources = sources
      var layers: [StyleLayer] = []
      var ids = Set<String>()
      if let count = root["layers"].value?.array?.count, count > Style.maximumLayers {
        throw StyleError(
          path: "layers", message: "\(count) layers; Tessera draws styles of at most \(Style.maximumLayers) layers")
      }
      for cursor in try root["layers"].elements() {
        guard let layer = try StyleLayer.parse(cursor, sources: sources, warnings: &warnings) else { continue }
        guard ids.insert(layer.id).inserted else {
          throw StyleError(path: "\(cursor.path).id", message: "duplicate layer id '\(layer.id)'")
        }
        layers.append(layer)
      }
      self.layers = layers
      if let centre = root["center"].value?.array, centre.count >= 2, let lng = centre[0].number,
        let lat = centre[1].number
      {
        center = Coordinate(latitude: lat, longitude: lng)
      }
      zoom = try root["zoom"].optionalNumber()
      bearing = try root["bearing"].number(default: 0)
      pitch = try root["pitch"].number(default: 0)
      metadata = root["metadata"].value
      light = StyleLight.parse(root["light"], warnings: &warnings)
      sprites = try StyleSprite.parse(root["sprite"])
      glyphs = try root["glyphs"].optionalString()
      self.warnings = warnings
    } catch let error as StyleError {
      throw error
    } catch let error as JSONFieldError {
      throw StyleError(path: error.path, message: "expected \(error.expected), found \(error.found)")
    } catch {
      throw StyleError(path: "style", message: "\(error)")
    }
  }

  /// Makes a style from layers and sources built in code (the built-in map types).
  package init(name: String, sources: [String: StyleSource], layers: [StyleLayer]) {
    self.name = name
    self.sources = sources
    self.layers = layers
    bearing = 0
    pitch = 0
    light = StyleLight()
    warnings = []
  }
}

/// One sprite of a style: a base URL (`NAME` for `NAME.json` and `NAME.png`) and the id its
/// images are named under.
package struct StyleSprite: Sendable, Equatable {
  /// `default` for the style's one sprite, whose images keep their names.
  package let id: String
  package let url: String

  package init(id: String, url: String) {
    self.id = id
    self.url = url
  }

  /// The name an image of this sprite is known by in the style.
  package func imageName(_ name: String) -> String { id == "default" ? name : "\(id):\(name)" }

  static func parse(_ cursor: JSONCursor) throws -> [StyleSprite] {
    guard let value = cursor.value, value != .null else { return [] }
    if case .string(let url) = value { return [StyleSprite(id: "default", url: url)] }
    guard case .array = value else { throw cursor.mismatch("a URL or an array of {\"id\", \"url\"}") }
    var ids = Set<String>()
    var sprites: [StyleSprite] = []
    for element in try cursor.elements() {
      let sprite = StyleSprite(id: try element["id"].string(), url: try element["url"].string())
      guard ids.insert(sprite.id).inserted else {
        throw StyleError(path: "\(element.path).id", message: "duplicate sprite id '\(sprite.id)'")
      }
      sprites.append(sprite)
    }
    return sprites
  }
}
