import Foundation
import Tessera
import TesseraData
import TesseraJSON
import TesseraNumbers

/// Reading a tileserver-gl `config.json` (top-level `options`, `styles`, `data`) as it is:
/// its folders, styles and data become the service's styles, its options the service's
/// equivalent settings, and every option Tessera does not use one line of ``warnings``.
extension ServiceConfiguration {
  /// Whether a config file's document is a tileserver-gl config: it has an `options` or a
  /// `data` section (Tessera's own format has neither).
  static func isTileserverGL(_ root: JSONCursor) -> Bool {
    root["options"].exists || root["data"].exists
  }

  /// The largest scale factor Tessera renders (tileserver-gl allows up to 9).
  static let largestScale = 4

  /// How the folders of config `file`'s resolved styles begin: `styles-` and a hash of the
  /// file's path (FNV-1a); each read of the file writes to a new one, numbered
  /// (``ResolvedStylesFolder``).
  package static func resolvedStylesPrefix(configFile file: String) -> String {
    "styles-" + String(FNV1a.hash(file), radix: 16) + "-"
  }

  /// Writes the resolved styles of one read of config `file` to a new folder of the process's
  /// ``PrivateTemporaryFolder``, which this configuration (and its copies: the service's, the
  /// requests' under way) keeps: a reload never removes the files of the configuration still in
  /// force, and a read that fails removes its own.
  private mutating func writeResolvedStyles(
    _ declared: [(id: String, path: String)], file: String, paths: TileserverGLPaths,
    data: [String: TileserverGLStyle.Archive]
  ) throws {
    let folder = try ResolvedStylesFolder(prefix: Self.resolvedStylesPrefix(configFile: file))
    for (id, path) in declared {
      let document = try TileserverGLStyle.resolved(
        stylePath: path, field: "styles.\(id)", configFile: file, paths: paths, data: data)
      let copy = folder.path + "/\(id).json"
      guard FileManager.default.createFile(atPath: copy, contents: Data(document.serialized().utf8)) else {
        throw ConfigurationError(source: file, reason: "styles.\(id): cannot write the resolved style to \(copy)")
      }
      styles[id] = .file(path: copy, dataRoot: (path as NSString).deletingLastPathComponent)
      publishedStyleFiles[id] = path
    }
    resolvedStyles = folder
  }

  /// Sets what the tileserver-gl config `root`, read from `file`, declares.
  mutating func readTileserverGL(_ root: JSONCursor, file: String) throws {
    let folder = (file as NSString).deletingLastPathComponent
    for key in try root.keys() where !["options", "styles", "data"].contains(key) {
      warnings.append("\(key): not a tileserver-gl config section; ignored")
    }
    let options = root["options"]
    if options.exists, options.value?.object == nil { throw options.mismatch("an object of options") }
    let paths = try TileserverGLPaths(options["paths"], configFolder: folder, warnings: &warnings)
    try readOptions(options, paths: paths)
    let data = try Self.archives(root["data"], paths: paths, warnings: &warnings)
    dataSets = data
    fontsFolder = paths.fonts
    var declared: [(id: String, path: String)] = []
    let entries = root["styles"]
    if entries.exists, entries.value?.object == nil { throw entries.mismatch("an object of styles by id") }
    for (id, entry) in try entries.isAbsentOrNull ? [] : entries.members() {
      guard let path = try styleFile(id, entry, paths: paths) else { continue }
      declared.append((id, path))
    }
    if try options["serveAllStyles"].bool(default: false) {
      warnings.append(
        "options.serveAllStyles: the styles folder is read when the config is (at start and on SIGHUP), not watched")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.styles)) ?? []
      for name in names.sorted() where name.hasSuffix(".json") {
        let id = String(name.dropLast(5))
        guard Self.isStyleID(id) else {
          warnings.append(
            "\(paths.styles)/\(name): not served; a style id (the file's name) holds only letters, digits, - and _")
          continue
        }
        guard !declared.contains(where: { $0.id == id }) else { continue }
        declared.append((id, paths.styles + "/" + name))
      }
    }
    if !declared.isEmpty { try writeResolvedStyles(declared, file: file, paths: paths, data: data) }
  }

  /// The style file of the entry `id` (nil when it is not rendered); warns of what the entry
  /// sets that Tessera does not use.
  private mutating func styleFile(_ id: String, _ entry: JSONCursor, paths: TileserverGLPaths) throws -> String? {
    guard Self.isStyleID(id) else {
      throw entry.invalid("a style id of letters, digits, - and _")
    }
    if entry.value?.object == nil { throw entry.mismatch("an object with a 'style' file") }
    for key in try entry.keys() where !["style", "serve_rendered", "serve_data", "tilejson"].contains(key) {
      warnings.append("\(entry[key].path): not a style setting Tessera uses; ignored")
    }
    styleTileJSON[id] = try Self.tileJSONOverrides(entry["tilejson"])
    if try entry["serve_data"].bool(default: false) {
      warnings.append("\(entry["serve_data"].path): the data sets of `data` are served at /data/{id}; ignored")
    }
    let name = try entry["style"].string()
    guard try entry["serve_rendered"].bool(default: true) else { return nil }
    if TileserverGLStyle.isRemote(name) {
      warnings.append("\(entry["style"].path): Tessera reads local style files only; style '\(id)' is not served")
      return nil
    }
    let path = Scene.absolutePath(name, against: paths.styles)
    guard FileManager.default.fileExists(atPath: path) else {
      throw entry["style"].invalid("a style file under \(paths.styles)")
    }
    return path
  }

  /// The `data` entries by id: an `mbtiles` or a `pmtiles` file under its folder.
  private static func archives(
    _ data: JSONCursor, paths: TileserverGLPaths, warnings: inout [String]
  ) throws(JSONFieldError) -> [String: TileserverGLStyle.Archive] {
    if data.exists, data.value?.object == nil { throw data.mismatch("an object of data sources by id") }
    var archives: [String: TileserverGLStyle.Archive] = [:]
    for (id, entry) in try data.isAbsentOrNull ? [] : data.members() {
      if entry.value?.object == nil { throw entry.mismatch("an object with an 'mbtiles' or 'pmtiles' file") }
      for key in try entry.keys()
      where !["mbtiles", "pmtiles", "encoding", "tileSize", "sparse", "tilejson"].contains(key) {
        warnings.append("\(entry[key].path): not a data setting Tessera uses; ignored")
      }
      let field: JSONCursor
      if entry["mbtiles"].exists {
        guard !entry["pmtiles"].exists else { throw entry.invalid("either 'mbtiles' or 'pmtiles', not both") }
        field = entry["mbtiles"]
      } else if entry["pmtiles"].exists {
        field = entry["pmtiles"]
      } else {
        throw entry.invalid("an 'mbtiles' or 'pmtiles' file name")
      }
      let name = try field.string()
      let isPMTiles = field.path.hasSuffix(".pmtiles")
      if isPMTiles, name.contains("://") {
        warnings.append("\(field.path): Tessera reads local PMTiles files only; data '\(id)' is skipped")
        continue
      }
      let path = Scene.absolutePath(name, against: isPMTiles ? paths.pmtiles : paths.mbtiles)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
        throw field.invalid("a file under \(isPMTiles ? paths.pmtiles : paths.mbtiles) (no \(path))")
      }
      var archive = TileserverGLStyle.Archive(isPMTiles: isPMTiles, name: name, path: path)
      if let encoding = try entry["encoding"].optionalString() {
        guard let known = DEMEncoding(rawValue: encoding) else {
          throw entry["encoding"].invalid("'terrarium' or 'mapbox'")
        }
        archive.encoding = known
      }
      if let size = try entry["tileSize"].optionalInteger(in: 64...4096) { archive.tileSize = size }
      archive.sparse = try entry["sparse"].bool(default: false)
      archive.tileJSON = try Self.tileJSONOverrides(entry["tilejson"])
      archives[id] = archive
    }
    return archives
  }

  /// The TileJSON fields a `tilejson` entry sets over the ones Tessera writes (tileserver-gl
  /// merges them the same way); `tiles` and `tilejson` stay Tessera's.
  static func tileJSONOverrides(_ field: JSONCursor) throws(JSONFieldError) -> JSONObject {
    guard !field.isAbsentOrNull else { return [:] }
    guard let object = field.value?.object else { throw field.mismatch("an object of TileJSON fields") }
    if let bounds = object["bounds"] {
      guard let box = bounds.array, box.count == 4, box.allSatisfy({ $0.number?.isFinite == true }) else {
        throw field["bounds"].mismatch("[west, south, east, north] in degrees")
      }
    }
    if let center = object["center"] {
      guard let point = center.array, (2...3).contains(point.count), point.allSatisfy({ $0.number?.isFinite == true })
      else { throw field["center"].mismatch("[longitude, latitude] or [longitude, latitude, zoom]") }
    }
    for key in ["minzoom", "maxzoom"] where object[key] != nil {
      _ = try field[key].integer(in: 0...30)
    }
    var kept = object
    kept["tiles"] = nil
    kept["tilejson"] = nil
    return kept
  }

  /// Whether `id` may name a style in URLs.
  static func isStyleID(_ id: String) -> Bool {
    !id.isEmpty && id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
  }
}
