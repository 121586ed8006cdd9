import Foundation
import TesseraGeo
import TesseraNumbers

/// The limits overlays are checked against before they are drawn; each kind's checks are its
/// own (``OverlayKind/validate(_:_:)``).
enum OverlayValidation {
  /// The most points one overlay's paths may hold together (10 million are refused).
  static let maximumPoints = OverlayCheck.maximumPoints
  /// Degrees: longitudes may run past ±180 (a path continuing across the antimeridian) but not
  /// beyond ten turns.
  static let maximumLongitude = OverlayCheck.maximumLongitude

  /// Throws when `overlay` holds coordinates that are not finite or out of range, more points
  /// than ``maximumPoints``, or a negative or non-finite size.
  static func check(_ overlay: MapOverlay) throws(OverlayError) {
    try overlay.kind.validate(any: overlay, OverlayCheck(overlay))
  }
}
