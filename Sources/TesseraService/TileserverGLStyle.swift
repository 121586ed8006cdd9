import Foundation
import TesseraData
import TesseraJSON
import TesseraNumbers

/// A style of a tileserver-gl config made readable by Tessera's style loader: its
/// `mbtiles://{id}` and `pmtiles://{id}` sources point at the files of the config's `data`
/// entries, its glyphs under the fonts folder and its sprite under the sprites folder, all as
/// absolute paths.
package enum TileserverGLStyle {
  /// A data entry of the config: an archive file.
  package struct Archive: Sendable, Equatable {
    /// Whether the file is a PMTiles archive (else MBTiles).
    package var isPMTiles: Bool
    /// The file name as the config writes it (styles may name the entry by it).
    package var name: String
    /// The file's absolute path.
    package var path: String
    /// How a DEM archive packs heights (the entry's `encoding`, else the archive's metadata).
    package var encoding: DEMEncoding?
    /// The tile size the entry declares (`tileSize`), points.
    package var tileSize: Int?
    /// Whether a tile missing inside the data is answered 404 (so clients overzoom the
    /// parent) rather than 204 (`sparse`).
    package var sparse = false
    /// TileJSON fields set over the archive's own (`tilejson`).
    package var tileJSON: JSONObject = [:]

    package init(isPMTiles: Bool, name: String, path: String) {
      (self.isPMTiles, self.name, self.path) = (isPMTiles, name, path)
    }

    /// The source URL Tessera opens.
    package var url: String { (isPMTiles ? "pmtiles://" : "mbtiles://") + path }
  }

  /// The data entry a source's `mbtiles://{id}` names: the entry of that id, else the one whose
  /// file has that name (as tileserver-gl looks them up).
  package static func archive(_ id: String, in data: [String: Archive]) -> Archive? {
    data[id] ?? data.keys.sorted().lazy.compactMap { data[$0] }.first { $0.name == id }
  }

  /// The style document of the file at `stylePath` (named `field` in `configFile`) with its
  /// local references resolved.
  package static func resolved(
    stylePath: String, field: String, configFile: String, paths: TileserverGLPaths, data: [String: Archive]
  ) throws -> JSONValue {
    guard let bytes = FileManager.default.contents(atPath: stylePath) else {
      throw ConfigurationError(source: configFile, reason: "\(field): cannot read the style file \(stylePath)")
    }
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(Array(bytes))
    } catch {
      throw ConfigurationError(source: stylePath, reason: "invalid JSON at \(error)")
    }
    guard var style = parsed.object else {
      throw JSONCursor(root: parsed, source: stylePath).mismatch("a style object")
    }
    if let sources = style["sources"]?.object {
      var resolvedSources = sources
      for (name, source) in sources.pairs {
        guard var object = source.object, let url = object["url"]?.string, let id = dataID(url) else { continue }
        guard let archive = archive(id, in: data) else {
          throw ConfigurationError(
            source: configFile,
            reason: "\(field): source '\(name)' of \(stylePath) names data '\(id)', which 'data' does not declare")
        }
        object["url"] = .string(archive.url)
        resolvedSources[name] = .object(object)
      }
      style["sources"] = .object(resolvedSources)
    }
    if let glyphs = style["glyphs"]?.string, !isRemote(glyphs) {
      style["glyphs"] = .string("file://" + joined(paths.fonts, glyphs))
    }
    let styleName = ((stylePath as NSString).lastPathComponent as NSString).deletingPathExtension
    let styleFolder = (stylePath as NSString).deletingLastPathComponent
    func sprite(_ name: String) -> String {
      if isRemote(name) { return name }
      let named = name.replacingOccurrences(of: "{style}", with: styleName)
        .replacingOccurrences(of: "{styleJsonFolder}", with: styleFolder)
      return "file://" + joined(paths.sprites, named)
    }
    switch style["sprite"] {
    case .string(let name)?:
      style["sprite"] = .string(sprite(name))
    case .array(let sprites)?:
      style["sprite"] = .array(
        sprites.map { item in
          guard var object = item.object, let url = object["url"]?.string else { return item }
          object["url"] = .string(sprite(url))
          return .object(object)
        })
    default:
      break
    }
    return .object(style)
  }

  /// The data id an `mbtiles://{id}` or `pmtiles://{id}` URL names (braces optional, as
  /// tileserver-gl takes it); nil for other URLs.
  package static func dataID(_ url: String) -> String? {
    for scheme in ["mbtiles://", "pmtiles://"] where url.hasPrefix(scheme) {
      var id = String(url.dropFirst(scheme.count))
      if id.hasPrefix("{"), id.hasSuffix("}"), id.count >= 2 { id = String(id.dropFirst().dropLast()) }
      return id
    }
    return nil
  }

  /// Whether `reference` is fetched over the network rather than read from a folder.
  static func isRemote(_ reference: String) -> Bool {
    reference.hasPrefix("http://") || reference.hasPrefix("https://")
  }

  /// `name` under `folder` (kept when it is absolute).
  private static func joined(_ folder: String, _ name: String) -> String {
    name.hasPrefix("/") ? name : folder + "/" + name
  }
}
