import TesseraNumbers

/// How much content one map may be given to draw: markers, overlays, and the points of all
/// overlays once geodesic lines are cut along their great circles, circles are made rings and
/// dashes laid out. Content beyond a limit is refused with ``ContentLimitError`` before any of
/// it is tessellated, so a description asking for more (a line of 60,000 points hopping across
/// the antimeridian becomes tens of millions) costs a count, not gigabytes.
public struct ContentLimits: Sendable, Equatable {
  /// Markers on the map.
  public var markers: Int
  /// Overlays on the map.
  public var overlays: Int
  /// Points of every overlay after densification, together.
  public var overlayPoints: Int

  /// The defaults hold what an application draws (a million markers, five million overlay
  /// points: about 2 GB while a frame is prepared) and stop a description that would need many
  /// gigabytes.
  public init(markers: Int = 1_000_000, overlays: Int = 100_000, overlayPoints: Int = 5_000_000) {
    self.markers = markers
    self.overlays = overlays
    self.overlayPoints = overlayPoints
  }
}

/// Content beyond a ``ContentLimits`` limit.
public struct ContentLimitError: Error, Equatable, CustomStringConvertible {
  /// What was counted ("markers", "overlays", "overlay points after densification").
  public let what: String
  public let count: Int
  public let limit: Int

  public var description: String { "the map holds \(count) \(what); the limit is \(limit)" }
}
