import Foundation
import TesseraData
import TesseraJSON
import TesseraNumbers

extension IndoorVenue {
  /// The IMDF files read, by feature type; the first two must be there.
  static let requiredFiles = ["venue", "level", "unit"]
  static let optionalFiles = [
    "building", "footprint", "opening", "fixture", "section", "amenity", "anchor", "occupant",
  ]
  /// The largest file read, bytes.
  static let largestFile = 64 << 20

  /// Reads the IMDF folder or `.zip` archive `path` through `access` (relative paths resolve
  /// against its folder).
  public init(imdf path: String, access: ResourceAccess) throws {
    let location = try access.path(path, field: "indoor.imdf")
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: location, isDirectory: &isFolder) else {
      throw IndoorVenueError(source: location, reason: "no such IMDF folder or .zip archive")
    }
    // The file of each feature type: `name.geojson` in the folder, or anywhere in the archive.
    let read: (String) throws -> [UInt8]?
    if isFolder.boolValue {
      read = { file in
        let path = location + "/" + file
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
          return try access.contents(path, field: "indoor.imdf", maxBytes: Self.largestFile)
        } catch {
          throw IndoorVenueError(source: path, reason: "cannot be read (\(error))")
        }
      }
    } else {
      let bytes: [UInt8]
      do {
        bytes = try access.contents(location, field: "indoor.imdf", maxBytes: Self.largestFile)
      } catch {
        throw IndoorVenueError(source: location, reason: "cannot be read (\(error))")
      }
      let archive: ZipArchive
      do {
        archive = try ZipArchive(bytes, source: location)
      } catch {
        throw IndoorVenueError(source: location, reason: "not an IMDF folder or .zip archive: \(error.reason)")
      }
      read = { file in
        do {
          return try archive.file(named: file, source: location, limit: Self.largestFile)
        } catch let error as ZipError {
          throw IndoorVenueError(source: location, reason: error.reason)
        }
      }
    }
    var collections: [String: [JSONCursor]] = [:]
    for name in Self.requiredFiles + Self.optionalFiles {
      let fileName = name + ".geojson"
      let file = location + "/" + fileName
      guard let bytes = try read(fileName) else {
        if Self.requiredFiles.contains(name) {
          throw IndoorVenueError(source: file, reason: "missing: an IMDF venue needs venue, level and unit files")
        }
        continue
      }
      let root: JSONValue
      do {
        root = try JSONParser.parse(bytes)
      } catch {
        throw IndoorVenueError(source: file, reason: "invalid JSON at \(error)")
      }
      let cursor = JSONCursor(root: root, source: file)
      guard try cursor["type"].optionalString() == "FeatureCollection" else {
        throw IndoorVenueError(source: file, reason: "expected a GeoJSON FeatureCollection")
      }
      collections[name] = try cursor["features"].elements()
    }
    try self.init(collections: collections, folder: location)
  }

  /// The feature's `id`, checked.
  static func id(_ feature: JSONCursor) throws -> String {
    guard let id = try feature["id"].optionalString(), !id.isEmpty else {
      throw IndoorVenueError(source: feature.source, reason: "\(feature.path): a feature without its \"id\"")
    }
    return id
  }

  /// `{"en": "…", …}` labels of `field` (absent or null: none).
  static func labels(_ field: JSONCursor) throws -> [String: String] {
    guard !field.isAbsentOrNull else { return [:] }
    var labels: [String: String] = [:]
    for (tag, text) in try field.members() { labels[tag] = try text.string() }
    return labels
  }

  private init(collections: [String: [JSONCursor]], folder: String) throws {
    source = folder
    func failure(_ feature: JSONCursor, _ id: String, _ reason: String) -> IndoorVenueError {
      IndoorVenueError(source: feature.source, reason: "feature '\(id)': \(reason)")
    }
    // Levels.
    var levels: [Level] = []
    var levelGeometry: [String: JSONValue] = [:]
    for feature in collections["level"] ?? [] {
      let id = try Self.id(feature)
      let properties = feature["properties"]
      guard let ordinal = try properties["ordinal"].optionalInteger(in: -200...200) else {
        throw failure(feature, id, "a level needs an integer \"ordinal\"")
      }
      levels.append(
        Level(
          id: id, ordinal: ordinal, names: try Self.labels(properties["name"]),
          shortNames: try Self.labels(properties["short_name"])))
      if let geometry = feature["geometry"].value, geometry != .null { levelGeometry[id] = geometry }
    }
    guard !levels.isEmpty else {
      throw IndoorVenueError(source: folder + "/level.geojson", reason: "the venue has no levels")
    }
    self.levels = levels.sorted { ($0.ordinal, $0.id) < ($1.ordinal, $1.id) }
    let levelIDs = Set(levels.map(\.id))
    var features: [String: [JSONValue]] = [:]
    for (id, geometry) in levelGeometry.sorted(by: { $0.key < $1.key }) {
      features[id, default: []].append(Self.feature(geometry, kind: "level", category: "level", names: [:]))
    }
    // Units, fixtures, sections and openings: on one level each.
    var unitLevels: [String: String] = [:]
    var unitGeometry: [String: JSONValue] = [:]
    for kind in ["unit", "section", "fixture", "opening"] {
      for feature in collections[kind] ?? [] {
        let id = try Self.id(feature)
        let properties = feature["properties"]
        guard let level = try properties["level_id"].optionalString() else {
          throw failure(feature, id, "a \(kind) needs its \"level_id\"")
        }
        guard levelIDs.contains(level) else { throw failure(feature, id, "level_id '\(level)' names no level") }
        guard let geometry = feature["geometry"].value, geometry.object != nil else {
          throw failure(feature, id, "a \(kind) needs a geometry")
        }
        let category = try properties["category"].optionalString() ?? "unspecified"
        features[level, default: []].append(
          Self.feature(geometry, kind: kind, category: category, names: try Self.labels(properties["name"])))
        if kind == "unit" {
          unitLevels[id] = level
          unitGeometry[id] = geometry
        }
      }
    }
    // Amenities: points in one or more units.
    for feature in collections["amenity"] ?? [] {
      let id = try Self.id(feature)
      let properties = feature["properties"]
      let units =
        try properties["unit_ids"].isAbsentOrNull ? [] : properties["unit_ids"].elements().map { try $0.string() }
      guard let unit = units.first, let level = unitLevels[unit] else {
        throw failure(feature, id, "an amenity needs \"unit_ids\" naming units of the venue")
      }
      guard let geometry = feature["geometry"].value, geometry.object != nil else {
        throw failure(feature, id, "an amenity needs a point geometry")
      }
      features[level, default: []].append(
        Self.feature(
          geometry, kind: "amenity", category: try properties["category"].optionalString() ?? "unspecified",
          names: try Self.labels(properties["name"])))
    }
    // Occupants: named at their anchor's point, on the anchor's unit's level.
    var anchors: [String: (geometry: JSONValue, level: String)] = [:]
    for feature in collections["anchor"] ?? [] {
      let id = try Self.id(feature)
      guard let unit = try feature["properties"]["unit_id"].optionalString(), let level = unitLevels[unit] else {
        throw failure(feature, id, "an anchor needs a \"unit_id\" naming a unit of the venue")
      }
      guard let geometry = feature["geometry"].value, geometry.object != nil else {
        throw failure(feature, id, "an anchor needs a point geometry")
      }
      anchors[id] = (geometry, level)
    }
    for feature in collections["occupant"] ?? [] {
      let id = try Self.id(feature)
      let properties = feature["properties"]
      guard let anchor = try properties["anchor_id"].optionalString(), let placed = anchors[anchor] else {
        throw failure(feature, id, "an occupant needs an \"anchor_id\" naming an anchor of the venue")
      }
      features[placed.level, default: []].append(
        Self.feature(
          placed.geometry, kind: "occupant", category: try properties["category"].optionalString() ?? "unspecified",
          names: try Self.labels(properties["name"])))
    }
    self.features = features
    // Where the floor plan replaces the map's buildings: the footprints, else the venue.
    var footprints = (collections["footprint"] ?? []).compactMap { $0["geometry"].value }.filter { $0.object != nil }
    if footprints.isEmpty {
      footprints = (collections["venue"] ?? []).compactMap { $0["geometry"].value }.filter { $0.object != nil }
    }
    self.footprints = footprints
    names = try (collections["venue"]?.first).map { try Self.labels($0["properties"]["name"]) } ?? [:]
  }

  /// A GeoJSON feature of the floor plan.
  static func feature(_ geometry: JSONValue, kind: String, category: String, names: [String: String]) -> JSONValue {
    [
      "type": "Feature", "geometry": geometry,
      "properties": [
        "kind": .string(kind), "category": .string(category),
        "names": .object(JSONObject(names.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
      ],
    ]
  }
}
