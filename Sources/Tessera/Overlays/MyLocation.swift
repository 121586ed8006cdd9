import Foundation
import TesseraGeo
import TesseraNumbers

/// A location fix shown by the my-location layer (`myLocationEnabled` with the location the
/// application supplies, as a server has no sensors).
public struct LocationFix: Equatable, Sendable {
  public var coordinate: Coordinate
  /// Metres (the radius of the accuracy circle); 0: no circle.
  public var horizontalAccuracy: Double
  /// Degrees clockwise from north the device faces; nil: no heading cone.
  public var heading: Double?

  public init(coordinate: Coordinate, horizontalAccuracy: Double = 0, heading: Double? = nil) {
    self.coordinate = coordinate
    self.horizontalAccuracy = horizontalAccuracy
    self.heading = heading
  }
}

extension Map {
  /// Whether the my-location dot is drawn (at ``myLocation``).
  public var isMyLocationEnabled: Bool {
    get { overlayLayer.isMyLocationEnabled }
    set {
      overlayLayer.isMyLocationEnabled = newValue
      overlaysChanged()
    }
  }

  /// Where the my-location dot is drawn while ``isMyLocationEnabled``: a blue dot with a white
  /// ring, a translucent accuracy circle and, with a heading, a cone toward it. Drawn over the
  /// overlays and under the markers.
  public var myLocation: LocationFix? {
    get { overlayLayer.myLocation }
    set {
      overlayLayer.myLocation = newValue
      overlaysChanged()
    }
  }
}
