import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A scene field holding overlays: its name, the fields of its entries and how an entry becomes
/// overlays. Every ``OverlayKind`` is one; a field may also read overlays of other kinds
/// (`geojsonOverlays` makes polylines and polygons).
package protocol SceneOverlayField {
  /// The scene's field holding a list of entries (`"polylines"`).
  static var sceneField: String { get }
  /// The fields an entry may have; others are warned about.
  static var entryFields: Set<String> { get }
  /// The fields of objects inside an entry, by the entry's field holding them (an object, or
  /// a list of objects); empty when the entry has none.
  static var nestedFields: [(field: String, fields: Set<String>)] { get }
  /// The command-line flag writing one entry (``OverlayFlagSyntax``), or nil when the CLI
  /// has none for the field (or writes the kind its own way, as `--path` does).
  static var commandLine: OverlayFlagSyntax? { get }
  /// The overlays one entry describes; errors name the entry's field (``OverlayError``), files
  /// and URLs are reached only through `reader`'s access.
  static func read(_ entry: JSONCursor, reader: OverlayReader) throws -> [MapOverlay]
}

/// One kind of overlay and everything Tessera knows about it: how a scene writes it, what makes
/// it invalid, what it covers, where it is hit and which style layers draw it. Adding a kind is
/// one type conforming to this protocol and one line in ``OverlayKinds/all``; a kind that
/// leaves out a requirement does not compile.
package protocol OverlayKind: SceneOverlayField {
  /// The kind's name in accessibility output (`"kind"`), singular: `polyline`, `circle`, ….
  static var elementKind: String { get }

  /// The overlay class of the kind.
  associatedtype Overlay: MapOverlay

  /// The overlay one scene entry describes (the kind's ``SceneOverlayField/read(_:reader:)``);
  /// errors name the entry's field.
  static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> Overlay

  /// Throws ``OverlayError`` when `overlay` cannot be drawn (coordinates out of range, sizes
  /// that are negative or not finite); `check` holds the shared checks.
  static func validate(_ overlay: Overlay, _ check: OverlayCheck) throws(OverlayError)
  /// The points drawing `overlay` makes (after geodesic densification, rings of circles,
  /// pieces of spans), counted without making them: checked against ``ContentLimits``.
  static func pointCount(_ overlay: Overlay) -> Int
  /// The coordinates a camera fitted to the map's content must show (the implicit camera and
  /// `visible=`); empty for kinds that cover the world.
  static func coordinates(_ overlay: Overlay) -> [Coordinate]
  /// Whether `point` (points from the view's top left) hits `overlay` drawn through
  /// `projection`, `tolerance` points beyond its drawn edge.
  static func hits(_ overlay: Overlay, _ point: ScreenPoint, projection: Projection, tolerance: Double) -> Bool
  /// The overlay's bounds on screen in points (x, y of the top left, width, height) as an
  /// accessibility element shows them, or nil when it has no place of its own on screen.
  static func accessibilityFrame(_ overlay: Overlay, projection: Projection) -> ScreenRect?
  /// Adds the style layers drawing `overlay` to `style`.
  static func addLayers(_ overlay: Overlay, to style: inout OverlayStyleBuilder)
  /// A new overlay with the kind's own properties of `overlay` (on no map; ``MapOverlay``'s
  /// `zIndex` and `title` are copied for every kind).
  static func copy(_ overlay: Overlay) -> Overlay
}

extension OverlayKind {
  /// `overlay` as the kind's class: every overlay is made with its kind, so another class here
  /// is a programming error.
  static func typed(_ overlay: MapOverlay) -> Overlay {
    guard let typed = overlay as? Overlay else {
      preconditionFailure("\(type(of: overlay)) was made with the kind \(Self.self)")
    }
    return typed
  }

  package static func read(_ entry: JSONCursor, reader: OverlayReader) throws -> [MapOverlay] {
    [try readEntry(entry, reader: reader)]
  }

  // The requirements for an overlay known only as a ``MapOverlay`` made with this kind.

  static func validate(any overlay: MapOverlay, _ check: OverlayCheck) throws(OverlayError) {
    try validate(typed(overlay), check)
  }

  static func pointCount(any overlay: MapOverlay) -> Int { pointCount(typed(overlay)) }

  static func coordinates(any overlay: MapOverlay) -> [Coordinate] { coordinates(typed(overlay)) }

  static func hits(any overlay: MapOverlay, _ point: ScreenPoint, projection: Projection, tolerance: Double) -> Bool {
    hits(typed(overlay), point, projection: projection, tolerance: tolerance)
  }

  static func accessibilityFrame(any overlay: MapOverlay, projection: Projection) -> ScreenRect? {
    accessibilityFrame(typed(overlay), projection: projection)
  }

  static func addLayers(any overlay: MapOverlay, to style: inout OverlayStyleBuilder) {
    addLayers(typed(overlay), to: &style)
  }

  static func copy(any overlay: MapOverlay) -> MapOverlay {
    let made = copy(typed(overlay))
    made.zIndex = overlay.zIndex
    made.title = overlay.title
    made.accessibilityLabel = overlay.accessibilityLabel
    return made
  }
}
