import Foundation
import TesseraGeo
import TesseraNumbers

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
      let pieces = max(Int(clamping: (arc / geodesicStep).rounded(.up)), 1)
      for step in 1...pieces { result.append(interpolate(a, b, Double(step) / Double(pieces))) }
    }
    return result
  }

  /// The number of points ``geodesic(_:)`` makes of `path`, counted without making them.
  static func geodesicPointCount(_ path: [Coordinate]) -> Int {
    guard path.count > 1 else { return path.count }
    var count = 1
    for (a, b) in zip(path, path.dropFirst()) {
      let arc = centralAngle(a, b) * 180 / .pi
      count &+= max(Int(clamping: (arc / geodesicStep).rounded(.up)), 1)
    }
    return count
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

  /// `path` with longitudes moved by whole turns so that each step goes the shorter way round
  /// (a path from 170° to −170° crosses the antimeridian rather than circling the earth).
  static func unwrapped(_ path: [Coordinate]) -> [Coordinate] {
    guard var previous = path.first else { return path }
    var result = [previous]
    result.reserveCapacity(path.count)
    for point in path.dropFirst() {
      var longitude = point.longitude
      let step = longitude - previous.longitude
      if abs(step) > 180 { longitude -= 360 * (step / 360).rounded() }
      previous = Coordinate(latitude: point.latitude, longitude: longitude)
      result.append(previous)
    }
    return result
  }

  /// The metres from `a` to `b` along the line of constant bearing between them.
  static func rhumbDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
    let (phiA, phiB) = (a.latitude * .pi / 180, b.latitude * .pi / 180)
    var deltaLambda = (b.longitude - a.longitude) * .pi / 180
    if abs(deltaLambda) > .pi { deltaLambda -= (deltaLambda > 0 ? 2 : -2) * .pi }
    let deltaPsi = log(tan(.pi / 4 + phiB / 2) / tan(.pi / 4 + phiA / 2))
    let q = abs(deltaPsi) > 1e-12 ? (phiB - phiA) / deltaPsi : cos(phiA)
    return hypot(phiB - phiA, q * deltaLambda) * earthRadius
  }

  /// The part of `path` from segment position `start` to `end` (segment positions count path
  /// segments from 0: 1.5 is halfway along the second segment); points inside a segment lie on
  /// its great circle when `geodesic`, else on the straight line in latitude and longitude.
  static func slice(_ path: [Coordinate], from start: Double, to end: Double, geodesic: Bool) -> [Coordinate] {
    let segments = Double(path.count - 1)
    let (start, end) = (min(max(start, 0), segments), min(max(end, 0), segments))
    guard path.count > 1, end > start else { return [] }
    func point(at position: Double) -> Coordinate {
      let index = min(Int(clamping: position), path.count - 2)
      let t = position - Double(index)
      let (a, b) = (path[index], path[index + 1])
      if t <= 0 { return a }
      if t >= 1 { return b }
      if geodesic { return interpolate(a, b, t) }
      return Coordinate(
        latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t)
    }
    var result = [point(at: start)]
    var vertex = Int(clamping: start) + 1
    while Double(vertex) < end {
      result.append(path[vertex])
      vertex += 1
    }
    result.append(point(at: end))
    return result
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
