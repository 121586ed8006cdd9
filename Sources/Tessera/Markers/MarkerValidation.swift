import TesseraNumbers

/// The limits markers are checked against before a frame draws them: whatever set them (a
/// scene, a flag, the application), a marker with a position, rotation, opacity or anchor
/// out of range is an error naming the marker, never an overflow while it is drawn.
enum MarkerValidation {
  /// The largest share of its icon an anchor may lie away from the icon's corner (an anchor
  /// of 100 is a hundred icon widths away).
  static let maximumAnchor = 100.0

  /// Throws ``MarkerError`` for the first marker of `markers` that cannot be drawn.
  static func check(_ markers: [Marker]) throws(MarkerError) {
    for (index, marker) in markers.enumerated() {
      func fail(_ reason: String) -> MarkerError {
        MarkerError(source: "marker \(marker.title.map { "'\($0)'" } ?? String(index))", reason: reason)
      }
      let position = marker.position
      guard position.latitude.isFinite, position.longitude.isFinite, abs(position.latitude) <= 90 else {
        throw fail("position \(position) is not a coordinate")
      }
      guard marker.rotation.isFinite else { throw fail("rotation \(marker.rotation) is not finite degrees") }
      guard marker.opacity.isFinite, (0...1).contains(marker.opacity) else {
        throw fail("opacity \(marker.opacity) is not in 0…1")
      }
      for (name, anchor) in [("groundAnchor", marker.groundAnchor), ("infoWindowAnchor", marker.infoWindowAnchor)] {
        guard anchor.x.isFinite, anchor.y.isFinite, abs(anchor.x) <= maximumAnchor, abs(anchor.y) <= maximumAnchor
        else {
          throw fail(
            "\(name) (\(anchor.x), \(anchor.y)) is not in −\(Int(clamping: maximumAnchor))…\(Int(clamping: maximumAnchor))"
          )
        }
      }
    }
  }
}
