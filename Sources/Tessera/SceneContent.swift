import TesseraGeo
import TesseraJSON
import TesseraNumbers
import TesseraRender

/// What a map made from a scene is given besides its style: its markers (icons read), the
/// marker whose info window opens, its overlays and my-location fix, read and checked as
/// ``Map/addMarkers(from:)`` reads and checks them, and the camera once fitted to them. Reading
/// needs no device, so a scene's content can be checked (and the readers exercised) where no
/// GPU is.
package struct SceneContent {
  package var markers: [Marker] = []
  package var selected: Marker?
  package var overlays: [MapOverlay] = []
  package var myLocation: LocationFix?

  /// Reads the `markers` section and the overlay fields of `scene` through its access, then
  /// takes copies of the markers and overlays it holds as values (decoding the icons given as
  /// encoded bytes, ``MarkerIcon/encoded(_:field:)``); throws what making its map
  /// would (``MarkerError``, ``OverlayError``, ``SceneError`` for a `selectedMarker` out of
  /// range, JSON field errors), or ``RenderCancelledError`` once `cancellation` is cancelled
  /// (checked between overlays).
  package init(scene: Scene, cancellation: RenderCancellation? = nil) throws {
    if let markers = scene.markerFields {
      let cursor = JSONCursor(root: ["markers": markers], source: scene.path)["markers"]
      let loaded = try SceneMarkers.loadSelecting(cursor, access: scene.access)
      self.markers = loaded.markers
      selected = loaded.selected
      if let index = scene.selectedMarkerIndex {
        guard loaded.markers.indices.contains(index) else {
          throw SceneError.invalid(
            path: scene.path, field: "selectedMarker",
            reason: "expected a marker index in 0..<\(loaded.markers.count), found \(index)")
        }
        selected = loaded.markers[index]
      }
    }
    if let fields = scene.overlayFields {
      overlays = try MapOverlay.overlays(
        sceneFields: fields, source: scene.path, access: scene.access, cancellation: cancellation)
      myLocation = try SceneOverlays.myLocation(JSONCursor(root: fields, source: scene.path)["myLocation"])
    }
    // Icons given as encoded bytes are decoded here, once each, under the render's cancellation.
    var decoded: [ObjectIdentifier: MarkerIcon] = [:]
    func decode(_ icon: MarkerIcon?) throws -> MarkerIcon? {
      guard let icon, case .encoded = icon.source else { return icon }
      if let done = decoded[ObjectIdentifier(icon)] { return done }
      try cancellation?.check()
      let done = try icon.decoded(scene: scene.path)
      decoded[ObjectIdentifier(icon)] = done
      return done
    }
    for marker in scene.markers {
      marker.icon = try decode(marker.icon)
      marker.infoWindowIcon = try decode(marker.infoWindowIcon)
      markers.append(marker)
    }
    for overlay in scene.overlays {
      try cancellation?.check()
      try OverlayValidation.check(overlay)
      overlays.append(overlay)
    }
  }

  /// Throws what a frame drawing the content would refuse before drawing it: a marker or the
  /// my-location fix out of range, or more content than `limits` allow (counted before anything
  /// is densified).
  package func check(limits: ContentLimits) throws {
    try MarkerValidation.check(markers)
    if let myLocation { try SceneContent.check(myLocation) }
    try SceneContent.checkCounts(markers: markers.count, overlays: overlays, limits: limits)
  }

  /// `state` fitted to the content and `scene.visible` as a map made from `scene` is (when the
  /// scene does not place the camera); else `state` as it is.
  package func fitted(_ state: MapState, scene: Scene) -> MapState {
    guard !scene.placesCamera else { return state }
    var state = state
    state.fit(
      to: SceneContent.coordinates(markers: markers, overlays: overlays, myLocation: myLocation) + scene.visible,
      padding: scene.fit.padding, maximumZoom: scene.fit.maxZoom, wholeZoom: scene.fit.wholeZoom)
    return state
  }

  /// Throws ``OverlayError`` for a my-location fix a frame cannot draw.
  static func check(_ location: LocationFix) throws(OverlayError) {
    guard location.coordinate.latitude.isFinite, location.coordinate.longitude.isFinite,
      abs(location.coordinate.latitude) <= 90, location.horizontalAccuracy.isFinite, location.horizontalAccuracy >= 0
    else {
      throw OverlayError(overlay: "my location", reason: "expected a finite coordinate and an accuracy ≥ 0 metres")
    }
  }

  /// Throws ``ContentLimitError`` when `markers` markers, `overlays` or their points after
  /// densification exceed `limits`; counts only, nothing is made.
  static func checkCounts(markers: Int, overlays: [MapOverlay], limits: ContentLimits) throws(ContentLimitError) {
    guard markers <= limits.markers else {
      throw ContentLimitError(what: "markers", count: markers, limit: limits.markers)
    }
    guard overlays.count <= limits.overlays else {
      throw ContentLimitError(what: "overlays", count: overlays.count, limit: limits.overlays)
    }
    var points = 0
    for overlay in overlays {
      points &+= overlay.pointCount
      guard points <= limits.overlayPoints else {
        throw ContentLimitError(
          what: "overlay points after densification (or more)", count: points, limit: limits.overlayPoints)
      }
    }
  }

  /// Everything drawn that a view fitted to the content must show: marker positions, overlay
  /// paths and outlines, ground overlay corners, heatmap points and the my-location fix with
  /// its accuracy circle (tile overlays cover the world and do not count).
  static func coordinates(markers: [Marker], overlays: [MapOverlay], myLocation: LocationFix?) -> [Coordinate] {
    var coordinates = markers.map(\.position)
    for overlay in overlays { coordinates += overlay.kind.coordinates(any: overlay) }
    if let fix = myLocation {
      coordinates += OverlayGeometry.circle(center: fix.coordinate, radius: fix.horizontalAccuracy, count: 36)
    }
    return coordinates
  }
}

extension MapState {
  /// Places the camera as the Static Maps API does without `center` and `zoom`: centred on
  /// the bounds of `coordinates`, at the highest whole zoom (at most `maximumZoom`; the exact
  /// zoom unless `wholeZoom`) that shows them all inside `padding` points of the view's edges
  /// (bearing and tilt stay). Does nothing when there is nothing to show.
  mutating func fit(to coordinates: [Coordinate], padding: Double, maximumZoom: Double, wholeZoom: Bool) {
    let bounds = CoordinateBounds(coordinates: coordinates)
    guard bounds.isValid else { return }
    guard let fitted = camera(for: bounds, insets: EdgeInsets(all: padding)) else { return }
    move(.setTarget(fitted.target, zoom: min(wholeZoom ? fitted.zoom.rounded(.down) : fitted.zoom, maximumZoom)))
  }
}
