import TesseraGeo
import TesseraNumbers

/// A bounding box in degrees, and the copies of geometry that reach past the antimeridian.
struct OverlayBox {
  var west, south, east, north: Double

  init(_ coordinates: [Coordinate]) {
    (west, south, east, north) = (.infinity, .infinity, -.infinity, -.infinity)
    for c in coordinates {
      (west, east) = (min(west, c.longitude), max(east, c.longitude))
      (south, north) = (min(south, c.latitude), max(north, c.latitude))
    }
  }

  func intersects(_ other: OverlayBox) -> Bool {
    west <= other.east && other.west <= east && south <= other.north && other.south <= north
  }

  /// `rings` and, where they reach past ±180° of longitude, copies moved by a turn, so that
  /// the part beyond the antimeridian shows in the world it reaches into (tiles cut each copy
  /// at the world's edge).
  static func worldCopies(_ rings: [[Coordinate]]) -> [[[Coordinate]]] {
    let longitudes = rings.joined().map(\.longitude)
    guard let west = longitudes.min(), let east = longitudes.max() else { return [] }
    var copies = [rings]
    var shift = -360.0
    while east + shift > -180, shift >= -720 {
      copies.append(rings.map { $0.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude + shift) } })
      shift -= 360
    }
    shift = 360
    while west + shift < 180, shift <= 720 {
      copies.append(rings.map { $0.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude + shift) } })
      shift += 360
    }
    return copies
  }
}
