import Foundation
import TesseraGeo

/// The earth geometry of overlays: great-circle paths and geodesic circles.
enum OverlayGeometry {
  /// The earth's mean radius, metres (the SDK's GMSGeometry value).
  static let earthRadius = 6_371_009.0
  /// Great-circle segments are cut into pieces of at most this many degrees of arc.
  static let geodesicStep = 0.25

  /// `path` with each segment replaced by its great circle, cut every ``geodesicStep`` degrees.
  static func geodesic(_ path: [Coordinate]) -> [Coordinate] {
    guard path.count > 1 else { return path }
    var result = [path[0]]
    for (a, b) in zip(path, path.dropFirst()) {
      let arc = centralAngle(a, b) * 180 / .pi
      let pieces = max(Int((arc / geodesicStep).rounded(.up)), 1)
      for step in 1...pieces { result.append(interpolate(a, b, Double(step) / Double(pieces))) }
    }
    return result
  }

  /// The point a share `t` along the great circle from `a` to `b`.
  static func interpolate(_ a: Coordinate, _ b: Coordinate, _ t: Double) -> Coordinate {
    let angle = centralAngle(a, b)
    guard angle > 1e-12 else { return a }
    let (va, vb) = (vector(a), vector(b))
    let wa = sin((1 - t) * angle) / sin(angle)
    let wb = sin(t * angle) / sin(angle)
    let v = (wa * va.0 + wb * vb.0, wa * va.1 + wb * vb.1, wa * va.2 + wb * vb.2)
    var longitude = atan2(v.1, v.0) * 180 / .pi
    // Keep the path continuous across the antimeridian.
    while longitude - a.longitude > 180 { longitude -= 360 }
    while longitude - a.longitude < -180 { longitude += 360 }
    return Coordinate(latitude: atan2(v.2, (v.0 * v.0 + v.1 * v.1).squareRoot()) * 180 / .pi, longitude: longitude)
  }

  /// The points `radius` metres from `center` along great circles, every 360/`count` degrees
  /// of bearing from north, closed.
  static func circle(center: Coordinate, radius: Double, count: Int = 360) -> [Coordinate] {
    let distance = radius / earthRadius
    let latitude = center.latitude * .pi / 180
    let longitude = center.longitude * .pi / 180
    var ring: [Coordinate] = []
    for step in 0...count {
      let bearing = Double(step % count) / Double(count) * 2 * .pi
      let pointLatitude = asin(sin(latitude) * cos(distance) + cos(latitude) * sin(distance) * cos(bearing))
      let pointLongitude =
        longitude
        + atan2(sin(bearing) * sin(distance) * cos(latitude), cos(distance) - sin(latitude) * sin(pointLatitude))
      ring.append(Coordinate(latitude: pointLatitude * 180 / .pi, longitude: pointLongitude * 180 / .pi))
    }
    return ring
  }

  static func centralAngle(_ a: Coordinate, _ b: Coordinate) -> Double {
    let (va, vb) = (vector(a), vector(b))
    let dot = min(max(va.0 * vb.0 + va.1 * vb.1 + va.2 * vb.2, -1), 1)
    return acos(dot)
  }

  private static func vector(_ c: Coordinate) -> (Double, Double, Double) {
    let latitude = c.latitude * .pi / 180
    let longitude = c.longitude * .pi / 180
    return (cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
  }
}
