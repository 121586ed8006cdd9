import TesseraGeo
import TesseraNumbers

/// The checks overlays share before they are drawn, naming the overlay (its title, else its
/// kind) in the errors they throw.
package struct OverlayCheck {
  /// The most points one overlay's paths may hold together (10 million are refused).
  package static let maximumPoints = EncodedPolyline.maximumCoordinates
  /// Degrees: longitudes may run past ±180 (a path continuing across the antimeridian) but not
  /// beyond ten turns.
  package static let maximumLongitude = 3600.0

  /// How errors name the overlay.
  let name: String

  init(_ overlay: MapOverlay) {
    name = overlay.title.map { "'\($0)'" } ?? String(describing: type(of: overlay)).lowercased()
  }

  /// An error about the overlay.
  func fail(_ reason: String) -> OverlayError { OverlayError(overlay: name, reason: reason) }

  /// Throws when `paths` (`field` names them) hold more than ``maximumPoints`` points or a
  /// point that is not finite or has a latitude outside −90…90 degrees.
  func coordinates(_ paths: [[Coordinate]], field: String) throws(OverlayError) {
    let count = paths.reduce(0) { $0 + $1.count }
    guard count <= Self.maximumPoints else {
      throw fail("\(field) holds \(count) points; the limit is \(Self.maximumPoints)")
    }
    for path in paths {
      for (index, point) in path.enumerated()
      where !point.latitude.isFinite || !point.longitude.isFinite || abs(point.latitude) > 90 {
        throw fail(
          "\(field) point \(index) is (\(point.latitude), \(point.longitude)); expected finite degrees with latitude in −90…90"
        )
      }
    }
  }

  /// Throws when `value` (points, metres or a share; `field` names it) is negative or not finite.
  func size(_ value: Double, _ field: String) throws(OverlayError) {
    guard value.isFinite, value >= 0 else { throw fail("\(field) is \(value); expected a finite number ≥ 0") }
  }
}
