import TesseraNumbers

/// What the map shows indoors (GMSIndoorDisplay): a venue's floor plan at its active level,
/// drawn by the built-in map types from camera zoom 17 in place of the venue's buildings; the
/// other levels are hidden.
public struct IndoorDisplay: Sendable, Equatable {
  public var venue: IndoorVenue
  /// The level shown (``IndoorVenue/level(ordinal:)`` chooses one by its ordinal).
  public var activeLevel: IndoorVenue.Level

  /// `venue` at the level of `ordinal` (by default the ground floor, 0); throws an error
  /// listing the levels when the venue has none of that ordinal.
  public init(venue: IndoorVenue, ordinal: Int = 0) throws(IndoorVenueError) {
    self.venue = venue
    activeLevel = try venue.level(ordinal: ordinal)
  }
}
