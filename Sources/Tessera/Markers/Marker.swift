import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

/// How a marker appears when added (GMSMarkerAnimation): none, pop or fadeIn.
public typealias MarkerAppearAnimation = TesseraRender.MarkerAppearAnimation

/// How a marker competes for screen space (GMSCollisionBehavior), resolved per frame.
public enum MarkerCollisionBehavior: Int, Sendable, CaseIterable {
  /// Always shown; hides nothing (the default).
  case required = 0
  /// Always shown; hides overlapping optional markers.
  case requiredAndHidesOptional = 1
  /// Shown only when it overlaps no marker of higher priority (required ones, then higher
  /// zIndex; among equal zIndex, the one added first wins).
  case optionalAndHidesLowerPriority = 2
}

/// A point in a marker icon's unit square: (0, 0) top left, (1, 1) bottom right.
public struct MarkerAnchor: Sendable, Equatable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// `kGMSMarkerDefaultGroundAnchor`: the bottom centre.
  public static let defaultGround = MarkerAnchor(x: 0.5, y: 1)
  /// `kGMSMarkerDefaultInfoWindowAnchor`: the top centre.
  public static let defaultInfoWindow = MarkerAnchor(x: 0.5, y: 0)
}

/// A marker (GMSMarker): an icon at a coordinate, drawn above every tile layer and overlay.
/// Changing any property redraws it on the next snapshot of the map it is on.
public final class Marker {
  public var position: Coordinate { didSet { changed() } }
  /// Where the marker is drawn: ``position`` with its latitude kept within the map's
  /// (±85.0511°), so a marker at a pole stands on the world's edge, as the SDK draws it.
  var drawnPosition: Coordinate {
    Coordinate(
      latitude: min(max(position.latitude, -Mercator.maxLatitude), Mercator.maxLatitude),
      longitude: position.longitude)
  }
  /// Info-window title; also the default accessibility label.
  public var title: String? { didSet { changed() } }
  public var snippet: String? { didSet { changed() } }
  /// The picture; nil shows the default pin.
  public var icon: MarkerIcon? { didSet { changed() } }
  /// The point of the icon placed at `position`.
  public var groundAnchor = MarkerAnchor.defaultGround { didSet { changed() } }
  /// Where the info window attaches.
  public var infoWindowAnchor = MarkerAnchor.defaultInfoWindow { didSet { changed() } }
  /// A custom info window (the delegate's `markerInfoWindow:` view, as a picture): shown
  /// instead of the default bubble when the marker is selected, its bottom centre on the
  /// info-window anchor.
  public var infoWindowIcon: MarkerIcon? { didSet { changed() } }
  /// Degrees clockwise about the anchor: from the screen's up for billboards, from north for
  /// flat markers.
  public var rotation = 0.0 { didSet { changed() } }
  /// Lies on the ground (turns with the map, foreshortened by tilt) instead of facing the screen.
  public var isFlat = false { didSet { changed() } }
  /// 0…1.
  public var opacity = 1.0 { didSet { changed() } }
  /// Higher draws on top; equal values keep the order markers were added in.
  public var zIndex = 0 { didSet { changed() } }
  public var appearAnimation = MarkerAppearAnimation.none { didSet { changed() } }
  public var collisionBehavior = MarkerCollisionBehavior.required { didSet { changed() } }
  /// Whether hit tests can return it.
  public var isTappable = true
  /// Anything the application wants to keep with the marker.
  public var userData: Any?
  /// The accessibility label; defaults to the title.
  public var accessibilityLabel: String?

  /// The map showing the marker.
  public internal(set) weak var map: Map?
  /// The order it was added in (ties of zIndex).
  var sequence = 0

  public init(position: Coordinate, title: String? = nil, snippet: String? = nil, icon: MarkerIcon? = nil) {
    self.position = position
    self.title = title
    self.snippet = snippet
    self.icon = icon
  }

  private func changed() {
    map?.markersChanged()
  }
}
