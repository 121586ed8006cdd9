import TesseraNumbers

/// A rectangle of latitude and longitude: Google's `GMSCoordinateBounds`.
///
/// Longitudes run eastward from ``west`` to ``east``; when west > east the bounds cross the
/// antimeridian. Bounds made with no coordinates are invalid (``isValid`` is false); including a
/// coordinate into invalid bounds gives bounds of just that point. Edges count as inside.
public struct CoordinateBounds: Sendable, Equatable, Hashable, CustomStringConvertible {
  /// Southern edge, degrees.
  public let south: Double
  /// Western edge, degrees in [−180, 180).
  public let west: Double
  /// Northern edge, degrees.
  public let north: Double
  /// Eastern edge, degrees in [−180, 180) (or 180 for a span reaching it exactly).
  public let east: Double
  /// False for bounds made from nothing (`GMSCoordinateBounds()`).
  public let isValid: Bool

  /// Invalid, empty bounds.
  public init() {
    south = 0
    west = 0
    north = 0
    east = 0
    isValid = false
  }

  /// The smallest bounds holding both coordinates, taking the shorter way round in longitude
  /// (as `initWithCoordinate:coordinate:` does).
  public init(_ a: Coordinate, _ b: Coordinate) {
    let first = CoordinateBounds(point: a)
    self = first.including(b)
  }

  /// Bounds from explicit edges (west > east crosses the antimeridian); longitudes are wrapped,
  /// latitudes kept as given (south ≤ north is required for validity).
  public init(south: Double, west: Double, north: Double, east: Double) {
    self.south = south
    self.north = north
    let spansWholeWorld = east - west >= 360
    self.west = spansWholeWorld ? -180 : Mercator.wrapLongitude(west)
    let wrappedEast = Mercator.wrapLongitude(east)
    self.east = spansWholeWorld || (wrappedEast == -180 && east > west) ? 180 : wrappedEast
    isValid = [south, west, north, east].allSatisfy(\.isFinite) && south <= north
  }

  /// Bounds of one point.
  public init(point: Coordinate) {
    self.init(south: point.latitude, west: point.longitude, north: point.latitude, east: point.longitude)
  }

  /// The smallest bounds holding every coordinate (invalid when the list is empty).
  public init(coordinates: [Coordinate]) {
    self = coordinates.reduce(CoordinateBounds()) { $0.including($1) }
  }

  /// The north-east corner.
  public var northEast: Coordinate { Coordinate(latitude: north, longitude: east) }
  /// The south-west corner.
  public var southWest: Coordinate { Coordinate(latitude: south, longitude: west) }

  /// Whether the bounds cross the antimeridian (west > east).
  public var crossesAntimeridian: Bool { west > east }

  /// Degrees of longitude from west eastward to east, 0...360.
  public var longitudeSpan: Double {
    let span = east - west
    return span >= 0 ? span : span + 360
  }

  /// The longitude halfway from west to east (eastward), wrapped.
  public var centerLongitude: Double {
    Mercator.wrapLongitude(west + longitudeSpan / 2)
  }

  /// Whether `coordinate` lies inside or on the edge.
  public func contains(_ coordinate: Coordinate) -> Bool {
    guard isValid, coordinate.latitude >= south, coordinate.latitude <= north else { return false }
    return containsLongitude(coordinate.longitude)
  }

  /// Whether `longitude` lies inside the longitude span (edges included).
  public func containsLongitude(_ longitude: Double) -> Bool {
    let wrapped = Mercator.wrapLongitude(longitude)
    let offset = (wrapped - west).truncatingRemainder(dividingBy: 360)
    return (offset < 0 ? offset + 360 : offset) <= longitudeSpan + 1e-12 || east == 180 && wrapped == -180
  }

  /// These bounds grown to hold `coordinate`: latitude extended as needed; longitude extended
  /// on whichever side adds less span (east on a tie). Invalid bounds become just the point.
  public func including(_ coordinate: Coordinate) -> CoordinateBounds {
    guard isValid else { return CoordinateBounds(point: coordinate) }
    let south = min(self.south, coordinate.latitude)
    let north = max(self.north, coordinate.latitude)
    guard !containsLongitude(coordinate.longitude) else {
      return CoordinateBounds(south: south, west: west, north: north, east: east)
    }
    let longitude = Mercator.wrapLongitude(coordinate.longitude)
    let eastward = positiveDegrees(longitude - east)
    let westward = positiveDegrees(west - longitude)
    if eastward <= westward {
      return CoordinateBounds(south: south, west: west, north: north, east: west + longitudeSpan + eastward)
    }
    return CoordinateBounds(south: south, west: longitude, north: north, east: east)
  }

  /// These bounds grown to hold `other` (its corners, taking the shorter way round).
  public func including(_ other: CoordinateBounds) -> CoordinateBounds {
    guard other.isValid else { return self }
    guard isValid else { return other }
    if other.longitudeSpan > longitudeSpan && other.containsLongitude(west) && other.containsLongitude(east) {
      return CoordinateBounds(
        south: min(south, other.south), west: other.west, north: max(north, other.north), east: other.east)
    }
    return including(other.southWest).including(other.northEast)
  }

  /// Whether the two bounds overlap (touching counts).
  public func intersects(_ other: CoordinateBounds) -> Bool {
    guard isValid, other.isValid, south <= other.north, other.south <= north else { return false }
    return containsLongitude(other.west) || containsLongitude(other.east) || other.containsLongitude(west)
  }

  public var description: String {
    isValid ? "\(west),\(south),\(east),\(north)" : "invalid bounds"
  }

  private func positiveDegrees(_ value: Double) -> Double {
    let wrapped = value.truncatingRemainder(dividingBy: 360)
    return wrapped < 0 ? wrapped + 360 : wrapped
  }
}
