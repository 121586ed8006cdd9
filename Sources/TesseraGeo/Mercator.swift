import Foundation
import TesseraNumbers

/// Spherical Web Mercator in Google's units: at zoom z the world is 256·2^z points wide.
public enum Mercator {
  /// The WGS84 semi-major axis used by Web Mercator, in metres.
  public static let earthRadius = 6_378_137.0
  /// The highest latitude Web Mercator can show (the world is square), in degrees.
  public static let maxLatitude = 85.051_128_779_806_59
  /// The latitude range cameras and coordinates are clamped to, in degrees (Google's rule).
  public static let latitudeLimit = 85.0

  /// The world's width (and height) at `zoom`, in points: 256 · 2^zoom.
  public static func worldSize(zoom: Double) -> Double {
    256 * exp2(zoom)
  }

  /// Projects a coordinate to world points at `zoom`.
  public static func project(_ coordinate: Coordinate, zoom: Double) -> WorldPoint {
    project(coordinate, worldSize: worldSize(zoom: zoom))
  }

  /// Projects a coordinate to world points in a world `worldSize` points wide.
  public static func project(_ coordinate: Coordinate, worldSize: Double) -> WorldPoint {
    let phi = coordinate.latitude * .pi / 180
    let x = (coordinate.longitude + 180) / 360 * worldSize
    let y = (1 - log(tan(.pi / 4 + phi / 2)) / .pi) / 2 * worldSize
    return WorldPoint(x: x, y: y)
  }

  /// The coordinate of a world point at `zoom` (longitude not wrapped).
  public static func unproject(_ point: WorldPoint, zoom: Double) -> Coordinate {
    unproject(point, worldSize: worldSize(zoom: zoom))
  }

  /// The coordinate of a world point in a world `worldSize` points wide (longitude not wrapped).
  public static func unproject(_ point: WorldPoint, worldSize: Double) -> Coordinate {
    let longitude = point.x / worldSize * 360 - 180
    let n = .pi * (1 - 2 * point.y / worldSize)
    let latitude = atan(sinh(n)) * 180 / .pi
    return Coordinate(latitude: latitude, longitude: longitude)
  }

  /// How many points one metre spans at `latitude` (degrees) in a world `worldSize` points wide.
  public static func pointsPerMeter(latitude: Double, worldSize: Double) -> Double {
    worldSize / (2 * .pi * earthRadius * cos(latitude * .pi / 180))
  }

  /// Wraps a longitude into [−180, 180).
  public static func wrapLongitude(_ longitude: Double) -> Double {
    if longitude >= -180 && longitude < 180 { return longitude }
    let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
    return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
  }
}
