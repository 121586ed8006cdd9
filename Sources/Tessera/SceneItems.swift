import TesseraGeo
import TesseraNumbers

/// The markers and overlays a scene holds as values: copies of its own that nothing else
/// refers to and nothing changes once stored (each map made from the scene gets new copies),
/// which is what makes a scene holding them safe to send to other threads.
struct SceneItems: @unchecked Sendable {
  private var storedMarkers: [Marker] = []
  private var storedOverlays: [MapOverlay] = []

  /// New copies of the markers.
  var markers: [Marker] {
    get { storedMarkers.map { $0.copied() } }
    set { storedMarkers = newValue.map { $0.copied() } }
  }

  /// New copies of the overlays.
  var overlays: [MapOverlay] {
    get { storedOverlays.map { $0.kind.copy(any: $0) } }
    set { storedOverlays = newValue.map { $0.kind.copy(any: $0) } }
  }
}

extension Scene {
  /// Markers given as values (a library's own, or built by the CLI and the service), drawn
  /// after those of ``markerFields``. The scene keeps copies: reading gives new ones each
  /// time, and a marker changed after it was set changes the scene only when set again.
  public var markers: [Marker] {
    get { items.markers }
    set { items.markers = newValue }
  }

  /// Overlays given as values (``Polyline``, ``Polygon``, ``Circle``, ``GroundOverlay``,
  /// ``TileOverlay``, ``HeatmapOverlay``), drawn after those of ``overlayFields`` and checked
  /// as they are. The scene keeps copies, as for ``markers``.
  public var overlays: [MapOverlay] {
    get { items.overlays }
    set { items.overlays = newValue }
  }
}

extension Marker {
  /// A marker like this one, on no map.
  func copied() -> Marker {
    let copy = Marker(position: position, title: title, snippet: snippet, icon: icon)
    copy.groundAnchor = groundAnchor
    copy.infoWindowAnchor = infoWindowAnchor
    copy.infoWindowIcon = infoWindowIcon
    copy.rotation = rotation
    copy.isFlat = isFlat
    copy.opacity = opacity
    copy.zIndex = zIndex
    copy.appearAnimation = appearAnimation
    copy.collisionBehavior = collisionBehavior
    copy.isTappable = isTappable
    copy.userData = userData
    copy.accessibilityLabel = accessibilityLabel
    return copy
  }
}
