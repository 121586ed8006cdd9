import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

/// A visible marker as accessibility sees it.
public struct MarkerAccessibilityElement: Sendable, Equatable {
  /// The accessibility label (the marker's, else its title).
  public let label: String?
  public let title: String?
  public let snippet: String?
  /// The on-screen bounds in points: x, y of the top-left corner, width, height.
  public let frame: (x: Double, y: Double, width: Double, height: Double)
  /// Whether this is the selected marker's open info window rather than a marker.
  public var isInfoWindow = false
  /// Whether this is an overlay (one with a title: a polyline, polygon, circle, ground
  /// overlay or heatmap) rather than a marker.
  public var isOverlay = false
  /// What the element is: `marker`, `infoWindow`, an overlay kind (`polyline`, `polygon`,
  /// `circle`, `groundOverlay`, `heatmap`) or `indoorLevel`.
  public var kind = "marker"

  public static func == (a: MarkerAccessibilityElement, b: MarkerAccessibilityElement) -> Bool {
    a.label == b.label && a.title == b.title && a.snippet == b.snippet && a.frame == b.frame
      && a.isInfoWindow == b.isInfoWindow && a.isOverlay == b.isOverlay && a.kind == b.kind
  }
}

extension Map {
  /// The markers on the map, in the order they were added.
  public var markers: [Marker] { markerLayer.markers }

  /// Puts a marker on the map (`marker.map = mapView`); a marker on another map moves here.
  public func add(_ marker: Marker) {
    if let other = marker.map, other !== self { other.remove(marker) }
    guard marker.map !== self else { return }
    marker.map = self
    marker.sequence = markerLayer.nextSequence
    markerLayer.nextSequence += 1
    markerLayer.markers.append(marker)
    markerLayer.isDirty = true
  }

  /// Adds markers in order.
  public func add(_ markers: [Marker]) {
    for marker in markers { add(marker) }
  }

  /// Takes a marker off the map (`marker.map = nil`).
  public func remove(_ marker: Marker) {
    guard marker.map === self else { return }
    marker.map = nil
    markerLayer.markers.removeAll { $0 === marker }
    if selectedMarker === marker { selectedMarker = nil }
    markerLayer.isDirty = true
  }

  /// `clear`: removes every marker.
  public func clear() {
    for marker in markerLayer.markers { marker.map = nil }
    markerLayer.markers = []
    selectedMarker = nil
    markerLayer.isDirty = true
  }

  func markersChanged() {
    markerLayer.isDirty = true
  }

  /// The topmost tappable marker whose icon is drawn (not transparent) at `point` (points),
  /// respecting anchors, rotation, flatness, zIndex and collisions as last drawn; nil if none.
  public func marker(at point: ScreenPoint) -> Marker? {
    let transform = state.transform
    let scale = transform.viewport.scale
    for marker in markerLayer.drawn.reversed() where marker.isTappable && marker.opacity > 0 {
      let icon = markerLayer.icon(of: marker, scale: scale)
      guard let (u, v) = MarkerGeometry.iconPoint(of: point, marker: marker, icon: icon, transform: transform),
        u >= 0, u < 1, v >= 0, v < 1
      else { continue }
      let x = min(Int(clamping: u * Double(icon.image.width)), icon.image.width - 1)
      let y = min(Int(clamping: v * Double(icon.image.height)), icon.image.height - 1)
      if icon.image.pixel(x: x, y: y).a > 25 { return marker }
    }
    return nil
  }

  /// The markers drawn in the current view as accessibility elements, topmost last.
  public func markerAccessibilityElements() -> [MarkerAccessibilityElement] {
    let transform = state.transform
    let scale = transform.viewport.scale
    var elements: [MarkerAccessibilityElement] = []
    for marker in markerLayer.drawn where marker.opacity > 0 {
      let icon = markerLayer.icon(of: marker, scale: scale)
      guard let corners = MarkerGeometry.corners(marker, icon: icon, transform: transform) else { continue }
      let (minX, minY, maxX, maxY) = MarkerGeometry.bounds(corners)
      guard maxX > 0, maxY > 0, minX < transform.viewport.width, minY < transform.viewport.height else { continue }
      elements.append(
        MarkerAccessibilityElement(
          label: marker.accessibilityLabel ?? marker.title, title: marker.title, snippet: marker.snippet,
          frame: (minX, minY, maxX - minX, maxY - minY)))
    }
    return elements
  }

  /// What the markers hold on the GPU: atlas pages, distinct icon images in them, atlas bytes,
  /// instance bytes; and how many markers the last frame drew (after occlusion culling).
  public var markerStatistics: (pages: Int, icons: Int, atlasBytes: Int, instanceBytes: Int, drawn: Int) {
    let renderer = markerLayer.renderer
    let bytes = renderer.gpuBytes
    return (renderer.pageCount, renderer.atlasEntryCount, bytes.atlas, bytes.instances, renderer.drawnCount)
  }

  /// Marker sets of at least this many markers are culled against each other before drawing
  /// (only what can be seen is drawn); default 200.
  public var markerOcclusionThreshold: Int {
    get { markerLayer.renderer.occlusionThreshold }
    set {
      markerLayer.renderer.occlusionThreshold = newValue
      markerLayer.isDirty = true
    }
  }
}
