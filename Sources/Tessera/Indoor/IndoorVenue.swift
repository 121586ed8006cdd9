import Foundation
import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A venue's indoor floor plans, read from the OGC Indoor Mapping Data Format (IMDF): a folder
/// of GeoJSON feature collections (`manifest.json`, `venue.geojson`, `level.geojson`,
/// `unit.geojson`, and optionally `building`, `footprint`, `opening`, `fixture`, `section`,
/// `amenity`, `anchor`, `occupant`). Every feature is checked as it is read: a missing file,
/// a feature without its id, geometry or level, or one naming a level or unit the venue lacks
/// is an ``IndoorVenueError`` naming the file and the feature.
public struct IndoorVenue: Sendable, Equatable {
  /// One floor of the venue (an IMDF level).
  public struct Level: Sendable, Equatable {
    public let id: String
    /// The floor's number: 0 the ground floor, negative below it.
    public let ordinal: Int
    /// Its name (by language tag, as IMDF labels are) and short name.
    public let names: [String: String]
    public let shortNames: [String: String]

    /// The name in `language` (else English, else the first by tag).
    public func name(language: String?) -> String {
      IndoorVenue.label(names, language: language) ?? IndoorVenue.label(shortNames, language: language)
        ?? String(ordinal)
    }
  }

  /// The venue's name, by language tag.
  public let names: [String: String]
  /// Its floors, lowest first.
  public let levels: [Level]
  /// The area the venue's buildings cover (their footprints, else the venue's outline):
  /// polygons in GeoJSON form, where the floor plan replaces the map's buildings.
  let footprints: [JSONValue]
  /// The drawn features of each level by level id: GeoJSON features whose properties hold
  /// `kind` (unit, fixture, section, opening, amenity, occupant, level), `category` and
  /// `names` (an object by language tag).
  let features: [String: [JSONValue]]
  /// Where the file was read from (messages).
  public let source: String

  /// The level of `ordinal`; throws an error listing the levels when there is none.
  public func level(ordinal: Int) throws(IndoorVenueError) -> Level {
    guard let level = levels.first(where: { $0.ordinal == ordinal }) else {
      let known = levels.map { "\($0.ordinal) (\($0.name(language: nil)))" }.joined(separator: ", ")
      throw IndoorVenueError(
        source: source, reason: "no level with ordinal \(ordinal); the venue has levels \(known)")
    }
    return level
  }

  /// A label in `language` from IMDF's `{"en": …, "fa": …}`: that language, else English,
  /// else the first tag's.
  static func label(_ names: [String: String], language: String?) -> String? {
    if let language, let text = names[language] { return text }
    if let text = names["en"] { return text }
    return names.keys.sorted().first.flatMap { names[$0] }
  }
}

/// A venue that cannot be read: the file (and feature) and what is wrong.
public struct IndoorVenueError: Error, Equatable, CustomStringConvertible {
  public let source: String
  public let reason: String

  public init(source: String, reason: String) {
    self.source = source
    self.reason = reason
  }

  public var description: String { "\(source): \(reason)" }
}
