import Foundation
import TesseraData
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import Tessera

/// Indoor maps from IMDF: the golden tests' venue read (levels, names), a level that does not
/// exist refused with the levels listed, broken files refused naming the file and the feature,
/// and the level shown as an accessibility element.
@Suite struct IndoorTests {
  static let venueFolder = PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue")

  static func venue(_ location: String = venueFolder) throws -> IndoorVenue {
    try IndoorVenue(imdf: location, access: .local(directory: (location as NSString).deletingLastPathComponent))
  }

  @Test func theVenueIsRead() throws {
    let venue = try Self.venue()
    #expect(venue.levels.map(\.ordinal) == [0, 1])
    #expect(venue.levels.map { $0.name(language: nil) } == ["Ground floor", "First floor"])
    #expect(venue.levels.map { $0.name(language: "fa") } == ["طبقه همکف", "طبقه اول"])
    // Ground floor: level outline, 8 units, 7 openings, a fixture, 2 amenities, 1 occupant.
    let ground = venue.features["level-0"] ?? []
    let kinds = ground.compactMap { $0["properties"]?["kind"]?.string }
    #expect(kinds.filter { $0 == "unit" }.count == 8 && kinds.filter { $0 == "opening" }.count == 7)
    #expect(kinds.filter { $0 == "amenity" }.count == 2 && kinds.contains("occupant") && kinds.contains("level"))
    #expect((venue.features["level-1"] ?? []).count > 5)
  }

  /// The same venue as a `.zip` archive (files in a folder inside it) reads the same; a file
  /// that is no archive is refused naming it.
  @Test func aZipArchiveReadsLikeTheFolder() throws {
    let zip = PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue.zip")
    let archived = try Self.venue(zip)
    let folder = try Self.venue()
    #expect(archived.levels == folder.levels && archived.features == folder.features)
    #expect(archived.footprints == folder.footprints && archived.names == folder.names)
    let bogus = NSTemporaryDirectory() + "tessera-bogus-\(UUID().uuidString).zip"
    try Data("not a zip".utf8).write(to: URL(fileURLWithPath: bogus))
    defer { try? FileManager.default.removeItem(atPath: bogus) }
    let error = #expect(throws: IndoorVenueError.self) { try Self.venue(bogus) }
    #expect(error?.description.contains("not an IMDF folder or .zip archive") == true, "\(String(describing: error))")
  }

  @Test func aMissingLevelListsTheLevels() throws {
    let error = #expect(throws: IndoorVenueError.self) { try IndoorDisplay(venue: try Self.venue(), ordinal: 3) }
    #expect(
      error?.reason == "no level with ordinal 3; the venue has levels 0 (Ground floor), 1 (First floor)",
      "\(String(describing: error))")
  }

  /// A copy of the venue with `file` replaced by `text` (or removed when nil).
  static func broken(_ file: String, _ text: String?) throws -> String {
    let folder = NSTemporaryDirectory() + "tessera-imdf-" + UUID().uuidString
    try FileManager.default.copyItem(atPath: venueFolder, toPath: folder)
    let path = folder + "/" + file
    try FileManager.default.removeItem(atPath: path)
    if let text { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
    return folder
  }

  @Test func brokenFilesNameTheFileAndFeature() throws {
    let unit = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "u9", "#
    for (file, text, expected) in [
      ("unit.geojson", nil, "unit.geojson: missing"),
      ("unit.geojson", "{", "unit.geojson: invalid JSON"),
      ("unit.geojson", #"{"type": "Feature"}"#, "unit.geojson: expected a GeoJSON FeatureCollection"),
      (
        "unit.geojson",
        unit + #""properties": {"level_id": "level-7"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#,
        "feature 'u9': level_id 'level-7' names no level"
      ),
      ("unit.geojson", unit + #""properties": {}, "geometry": null}]}"#, "feature 'u9': a unit needs its \"level_id\""),
      (
        "level.geojson",
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "l", "properties": {}}]}"#,
        "feature 'l': a level needs an integer \"ordinal\""
      ),
      (
        "occupant.geojson",
        #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "o", "properties": {"anchor_id": "x"}}]}"#,
        "feature 'o': an occupant needs an \"anchor_id\" naming an anchor"
      ),
    ] {
      let folder = try Self.broken(file, text)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let error = #expect(throws: IndoorVenueError.self, "\(file): \(text ?? "removed")") { try Self.venue(folder) }
      #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
      #expect(error?.description.contains(file) == true, "\(String(describing: error))")
    }
  }

  /// From zoom 17 the level shown is an accessibility element (first, under the overlays and
  /// markers), named with the venue; below it there is none.
  @Test func theLevelIsAnAccessibilityElement() throws {
    var options = MapOptions(
      width: 200, height: 150, camera: try Camera(latitude: 39.99997, longitude: -74.00018, zoom: 18))
    options.indoor = try IndoorDisplay(venue: try Self.venue(), ordinal: 1)
    let map = try Map(options: options, gpu: .surfaceless)
    map.accessibilityElementsHidden = false
    let elements = try map.snapshot().accessibilityElements
    let level = try #require(elements.first)
    #expect(level.kind == "indoorLevel" && level.label == "New Bazaar, level First floor", "\(elements)")
    #expect(level.frame.width > 50 && level.frame.height > 50)
    map.camera = try Camera(latitude: 39.99997, longitude: -74.00018, zoom: 16)
    #expect(try map.snapshot().accessibilityElements.isEmpty)
  }
}

/// Maps of one render pool share its tile cache: GeoJSON sources of one name but other data
/// (two styles, two indoor levels) never get each other's tiles.
@Suite struct SharedTileCacheTests {
  @Test func geoJSONSourcesOfOneNameKeepTheirOwnTiles() throws {
    let folder = NSTemporaryDirectory() + "tessera-geojson-cache-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func style(_ name: String, west: Double) throws -> String {
      let text = """
        {"version": 8, "sources": {"shapes": {"type": "geojson", "data": {"type": "Polygon",
          "coordinates": [[[\(west), -0.5], [\(west + 0.5), -0.5], [\(west + 0.5), 0.5], [\(west), 0.5], [\(west), -0.5]]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "fill", "type": "fill", "source": "shapes", "paint": {"fill-color": "red"}}]}
        """
      let path = folder + "/" + name + ".json"
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return path
    }
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 6)
    let scenes = try [style("left", west: -0.5), style("right", west: 0)].map { path in
      Scene(options: MapOptions(width: 64, height: 64, camera: camera), stylePath: path, dataRoot: folder)
    }
    let pool = try RenderPool(threads: 1, gpu: .surfaceless)
    defer { pool.shutdown() }
    let pooled = try scenes.map { try pool.render($0).image }
    let alone = try scenes.map { try Map(scene: $0, gpu: .surfaceless).snapshot().image }
    // Compared as flags: a failure names what differs without printing the pictures.
    let apart = pooled[0] != pooled[1]
    let sameAsAlone = pooled == alone
    let drawn = !pooled[0].isUniform && !pooled[1].isUniform
    #expect(apart && sameAsAlone && drawn, "apart \(apart), as alone \(sameAsAlone), drawn \(drawn)")
  }
}
