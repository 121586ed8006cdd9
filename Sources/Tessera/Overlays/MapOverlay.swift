import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// An overlay drawn over the map and under the markers (GMSOverlay): overlays draw in `zIndex`
/// order, ties in the order they were added. Changing a property redraws the overlay on the
/// next snapshot of its map.
public class MapOverlay {
  /// Higher draws on top.
  public var zIndex = 0 { didSet { changed() } }
  /// A name for the application's own use; an overlay with a title (or an
  /// ``accessibilityLabel``) is an accessibility element.
  public var title: String?
  /// What accessibility output reads for the overlay, else its title.
  public var accessibilityLabel: String?
  /// The map showing the overlay.
  public internal(set) weak var map: Map?
  /// The order it was added in (ties of zIndex).
  var sequence = 0
  /// The overlay's kind: what reads, checks, covers, hit-tests and draws it (``OverlayKinds``).
  let kind: any OverlayKind.Type

  /// An overlay of `kind`, whose ``OverlayKind/Overlay`` is the class being made.
  init(kind: any OverlayKind.Type) {
    self.kind = kind
  }

  func changed() { map?.overlaysChanged() }

  /// The points drawing the overlay makes (after geodesic densification, rings of circles,
  /// pieces of spans), counted without making them: checked against ``ContentLimits``.
  var pointCount: Int { kind.pointCount(any: self) }
}
