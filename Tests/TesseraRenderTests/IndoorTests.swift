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

  static func venue(_ folder: String = venueFolder) throws -> IndoorVenue {
    try IndoorVenue(imdf: folder, access: .local(directory: folder))
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
