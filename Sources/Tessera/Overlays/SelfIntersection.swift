import Foundation
import TesseraGeo
import TesseraNumbers

/// Splits self-intersecting outlines into simple ones, so that a "bowtie" polygon fills both of
/// its lobes (as the SDK fills it) instead of failing to triangulate.
enum SelfIntersection {
  /// Rings longer than this are passed on as they are (finding crossings is quadratic).
  static let maximumPoints = 4096
  /// At most this many splits are made per ring.
  static let maximumSplits = 256

  /// The simple loops `ring` (closed: first point repeated last) is made of: where two of its
  /// edges cross, the loop between them is cut off at the crossing, until no edges cross.
  /// Longitude and latitude are taken as plane coordinates.
  static func simpleRings(_ ring: [Coordinate]) -> [[Coordinate]] {
    guard ring.count > 4, ring.count <= maximumPoints else { return [ring] }
    var pending = [Array(ring.dropLast())]
    var done: [[Coordinate]] = []
    var splits = 0
    while let points = pending.popLast() {
      guard points.count >= 3 else { continue }
      guard splits < maximumSplits, let (i, j, crossing) = firstCrossing(points) else {
        done.append(points + points.prefix(1))
        continue
      }
      splits += 1
      // Edges i→i+1 and j→j+1 (i < j) cross: points i+1…j form one loop with the crossing,
      // the rest (0…i, crossing, j+1…) the other.
      let loop = [crossing] + points[(i + 1)...j]
      let rest = Array(points[...i]) + [crossing] + Array(points[(j + 1)...])
      pending.append(loop)
      pending.append(rest)
    }
    return done
  }

  /// The first pair of non-adjacent edges that cross, and where.
  private static func firstCrossing(_ points: [Coordinate]) -> (Int, Int, Coordinate)? {
    let n = points.count
    for i in 0..<n {
      let (a, b) = (points[i], points[(i + 1) % n])
      for j in stride(from: i + 2, to: n, by: 1) where !(i == 0 && j == n - 1) {
        let (c, d) = (points[j], points[(j + 1) % n])
        if let crossing = crossing(a, b, c, d) { return (i, j, crossing) }
      }
    }
    return nil
  }

  /// Where segments a–b and c–d cross inside both (touching ends do not count).
  private static func crossing(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate, _ d: Coordinate) -> Coordinate? {
    let (rx, ry) = (b.longitude - a.longitude, b.latitude - a.latitude)
    let (sx, sy) = (d.longitude - c.longitude, d.latitude - c.latitude)
    let denominator = rx * sy - ry * sx
    guard abs(denominator) > 1e-18 else { return nil }
    let (qx, qy) = (c.longitude - a.longitude, c.latitude - a.latitude)
    let t = (qx * sy - qy * sx) / denominator
    let u = (qx * ry - qy * rx) / denominator
    let epsilon = 1e-12
    guard t > epsilon, t < 1 - epsilon, u > epsilon, u < 1 - epsilon else { return nil }
    return Coordinate(latitude: a.latitude + t * ry, longitude: a.longitude + t * rx)
  }

  /// Whether `point` lies inside the closed `ring` (even-odd).
  static func contains(_ ring: [Coordinate], _ point: Coordinate) -> Bool {
    var inside = false
    for (a, b) in zip(ring, ring.dropFirst())
    where (a.latitude > point.latitude) != (b.latitude > point.latitude)
      && point.longitude
        < a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
    {
      inside.toggle()
    }
    return inside
  }
}
