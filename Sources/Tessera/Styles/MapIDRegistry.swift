import Foundation
import TesseraJSON
import TesseraNumbers

/// Map IDs (`GMSMapViewOptions.mapID`): names that pick a look, as cloud styling does. An ID
/// resolves to a MapLibre style file, or to a built-in map type with Google styling, each with
/// optional colour-scheme variants.
///
/// Two ways to declare them:
/// - a **styles folder**: `ID.json` files; each is a MapLibre style (`"version": 8`), Google
///   styling JSON (an array of rules, drawn over the normal map type) or an entry object
///   (below); `ID.dark.json` is the dark variant of `ID`;
/// - a **config file**: `{"mapIDs": {"ID": ENTRY, …}}` where an entry is
///   `{"style": "file.json"}` or `{"mapType": "normal", "mapStyle": [rules] | "rules.json",
///   "dark": {"style" | "mapType" | "mapStyle" …}}`.
/// Paths are relative to the folder or the config file.
public struct MapIDRegistry: Sendable, Equatable {
  /// What an ID draws.
  public enum Look: Sendable, Equatable {
    /// A MapLibre style file (its relative URLs resolve against its folder).
    case style(path: String)
    /// A built-in map type with Google styling.
    case mapType(MapType, MapStyle?)
  }

  struct Entry: Sendable, Equatable {
    var light: Look
    var dark: Look?
  }

  /// Where the IDs were declared (in messages).
  public let source: String
  private var entries: [String: Entry] = [:]
  /// Folder registries read their files when an ID is asked for.
  private let folder: String?

  /// The IDs of `path`: a styles folder or a config file.
  public init(path: String) throws(MapIDError) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw MapIDError(source: path, reason: "no such folder or file")
    }
    source = path
    if isFolder.boolValue {
      folder = path
      return
    }
    folder = nil
    let root = try Self.readJSON(path)
    guard case .object(let ids)? = root["mapIDs"] else {
      throw MapIDError(source: path, reason: "expected {\"mapIDs\": {ID: entry, …}}")
    }
    let directory = (path as NSString).deletingLastPathComponent
    for (id, value) in ids.pairs {
      entries[id] = try Self.entry(value, id: id, directory: directory, source: path)
    }
  }

  /// The IDs known, sorted.
  public var knownIDs: [String] {
    if let folder {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".dark.json") }.map { String($0.dropLast(5)) }
        .sorted()
    }
    return entries.keys.sorted()
  }

  /// What `id` draws in `scheme` (the light look when there is no dark variant); an unknown ID
  /// is an error listing the known ones.
  public func look(_ id: String, colorScheme scheme: ColorScheme = .light) throws(MapIDError) -> Look {
    let entry: Entry
    if let folder {
      let path = "\(folder)/\(id).json"
      guard !id.contains("/"), FileManager.default.fileExists(atPath: path) else { throw unknown(id) }
      var made = try Self.entry(try Self.readJSON(path), id: id, directory: folder, source: path, file: path)
      let darkPath = "\(folder)/\(id).dark.json"
      if FileManager.default.fileExists(atPath: darkPath) {
        made.dark = try Self.entry(
          try Self.readJSON(darkPath), id: id, directory: folder, source: darkPath, file: darkPath
        )
        .light
      }
      entry = made
    } else {
      guard let known = entries[id] else { throw unknown(id) }
      entry = known
    }
    return scheme == .dark ? entry.dark ?? entry.light : entry.light
  }

  private func unknown(_ id: String) -> MapIDError {
    let known = knownIDs
    return MapIDError(
      source: source,
      reason: "unknown map ID '\(id)'"
        + (known.isEmpty ? " (none are declared)" : " (known: \(known.joined(separator: ", ")))"))
  }

  private static func readJSON(_ path: String) throws(MapIDError) -> JSONValue {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw MapIDError(source: path, reason: "cannot read the file")
    }
    do {
      return try JSONParser.parse(Array(data))
    } catch {
      throw MapIDError(source: path, reason: "invalid JSON: \(error)")
    }
  }

  /// An entry from its JSON: a MapLibre style document (then `file` is its path), styling
  /// rules, or an entry object.
  private static func entry(
    _ value: JSONValue, id: String, directory: String, source: String, file: String? = nil
  ) throws(MapIDError) -> Entry {
    func fail(_ reason: String) -> MapIDError { MapIDError(source: source, reason: "map ID '\(id)': \(reason)") }
    if case .array = value {
      do {
        return Entry(light: .mapType(.normal, try MapStyle(json: value, source: source)))
      } catch {
        throw fail(error.description)
      }
    }
    guard case .object(let object) = value else { throw fail("expected a style, styling rules or an entry object") }
    if object["version"] != nil, object["layers"] != nil {
      guard let file else { throw fail("a MapLibre style is named by \"style\": \"file.json\"") }
      return Entry(light: .style(path: file))
    }
    func look(_ object: JSONObject) throws(MapIDError) -> Look {
      if case .string(let style)? = object["style"] {
        return .style(path: Scene.absolutePath(style, against: directory))
      }
      var type = MapType.normal
      if let value = object["mapType"] {
        guard case .string(let name) = value, let parsed = MapType(rawValue: name) else {
          throw fail("mapType: expected one of \(MapType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        type = parsed
      }
      var style: MapStyle?
      switch object["mapStyle"] {
      case .string(let rulesFile)?:
        let path = Scene.absolutePath(rulesFile, against: directory)
        let rules = try readJSON(path)
        do {
          style = try MapStyle(json: rules, source: path)
        } catch {
          throw fail(error.description)
        }
      case .some(let rules):
        do {
          style = try MapStyle(json: rules, source: "\(source): \(id).mapStyle")
        } catch {
          throw fail(error.description)
        }
      case nil:
        style = nil
      }
      return .mapType(type, style)
    }
    var entry = Entry(light: try look(object))
    if case .object(let dark)? = object["dark"] { entry.dark = try look(dark) }
    return entry
  }
}

/// A map ID that cannot be resolved, or a registry that cannot be read.
public struct MapIDError: Error, Equatable, CustomStringConvertible {
  public let source: String
  public let reason: String

  public var description: String { "\(source): \(reason)" }
}
