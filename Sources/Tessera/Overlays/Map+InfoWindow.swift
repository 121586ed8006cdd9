import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraText

extension Map {
  /// The open info window as drawn in the current view: the picture and the screen point
  /// (points) its anchor lies on; nil when no marker is selected, the selected marker is not
  /// drawn (off this map, hidden by a collision, behind the camera) or has nothing to show.
  func openInfoWindow() -> (picture: OverlayPicture, at: ScreenPoint, marker: Marker)? {
    guard let marker = selectedMarker, marker.map === self, marker.opacity > 0,
      markerLayer.drawn.contains(where: { $0 === marker })
    else { return nil }
    let transform = state.transform
    let scale = transform.viewport.scale
    let icon = markerLayer.icon(of: marker, scale: scale)
    guard let corners = MarkerGeometry.corners(marker, icon: icon, transform: transform) else { return nil }
    // The info-window anchor inside the icon's quad (bilinear between its corners).
    let (u, v) = (marker.infoWindowAnchor.x, marker.infoWindowAnchor.y)
    let top = (corners[0].x + (corners[1].x - corners[0].x) * u, corners[0].y + (corners[1].y - corners[0].y) * u)
    let bottom = (corners[3].x + (corners[2].x - corners[3].x) * u, corners[3].y + (corners[2].y - corners[3].y) * u)
    let point = ScreenPoint(x: top.0 + (bottom.0 - top.0) * v, y: top.1 + (bottom.1 - top.1) * v)
    guard let picture = infoWindowPicture(for: marker, scale: scale) else { return nil }
    return (picture, point, marker)
  }

  /// The picture of `marker`'s info window: its custom picture (bottom centre on the anchor)
  /// or the default bubble of its title and snippet, made once per content and scale.
  private func infoWindowPicture(for marker: Marker, scale: Double) -> OverlayPicture? {
    if let custom = marker.infoWindowIcon {
      let (image, density) = custom.image(forScale: scale)
      let resampled = density == scale ? image : OverlayCompositor.resample(image, by: scale / density)
      return OverlayPicture(
        image: resampled, scale: scale, anchor: (Double(resampled.width) / 2, Double(resampled.height)))
    }
    let key = InfoWindowKey(title: marker.title, snippet: marker.snippet, scale: scale)
    if let cached = infoWindowCache, cached.key == key { return cached.picture }
    let picture = InfoWindowPainter.picture(
      title: marker.title, snippet: marker.snippet, scale: scale, glyphs: overlayGlyphs)
    infoWindowCache = picture.map { (key, $0) }
    return picture
  }

  /// The info window as an accessibility element (the SDK lists the open info window).
  func infoWindowAccessibilityElement() -> MarkerAccessibilityElement? {
    guard let (picture, point, marker) = openInfoWindow() else { return nil }
    let width = Double(picture.image.width) / picture.scale
    let height = Double(picture.image.height) / picture.scale
    let label = [marker.title, marker.snippet].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    return MarkerAccessibilityElement(
      label: label.isEmpty ? nil : label, title: marker.title, snippet: marker.snippet,
      frame: (point.x - picture.anchor.x / picture.scale, point.y - picture.anchor.y / picture.scale, width, height),
      isInfoWindow: true)
  }
}

/// What an info window picture was made from.
struct InfoWindowKey: Equatable {
  let title: String?
  let snippet: String?
  let scale: Double
}
