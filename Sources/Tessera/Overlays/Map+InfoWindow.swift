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
    guard let centred = infoWindowPicture(for: marker, scale: scale) else { return nil }
    // A default bubble reaching past the left or right edge moves back into the image as far
    // as its tail allows.
    guard marker.infoWindowIcon == nil else { return (centred, point, marker) }
    let bubble = InfoWindowPlacement.bubbleFrame(centred, at: point)
    let width = transform.viewport.width
    let offset = bubble.x < 0 ? -bubble.x : bubble.x + bubble.width > width ? width - bubble.x - bubble.width : 0
    guard offset != 0, let moved = infoWindowPicture(for: marker, scale: scale, bubbleOffset: offset) else {
      return (centred, point, marker)
    }
    return (moved, point, marker)
  }

  /// What of the open info window's bubble lies outside the image, as a warning; nil when it
  /// is whole (or none is open).
  func infoWindowOverflowWarning() -> String? {
    guard let (picture, point, _) = openInfoWindow() else { return nil }
    let bubble = InfoWindowPlacement.bubbleFrame(picture, at: point)
    let viewport = state.transform.viewport
    var sides: [String] = []
    if bubble.y < -0.5 { sides.append("top") }
    if bubble.y + bubble.height > viewport.height + 0.5 { sides.append("bottom") }
    if bubble.x < -0.5 { sides.append("left") }
    if bubble.x + bubble.width > viewport.width + 0.5 { sides.append("right") }
    guard !sides.isEmpty else { return nil }
    return "the selected marker's info window is cut at the image's \(sides.joined(separator: " and ")) edge; "
      + "move the camera or add padding to show it whole"
  }

  /// The picture of `marker`'s info window: its custom picture (bottom centre on the anchor)
  /// or the default bubble of its title and snippet (moved `bubbleOffset` points right of its
  /// tail), made once per content, scale and offset.
  private func infoWindowPicture(for marker: Marker, scale: Double, bubbleOffset: Double = 0) -> OverlayPicture? {
    if let custom = marker.infoWindowIcon {
      let (image, density) = custom.image(forScale: scale)
      let resampled = density == scale ? image : OverlayCompositor.resample(image, by: scale / density)
      return OverlayPicture(
        image: resampled, scale: scale, anchor: (Double(resampled.width) / 2, Double(resampled.height)))
    }
    let key = InfoWindowKey(title: marker.title, snippet: marker.snippet, scale: scale, bubbleOffset: bubbleOffset)
    if let cached = infoWindowCache, cached.key == key { return cached.picture }
    let picture = InfoWindowPainter.picture(
      title: marker.title, snippet: marker.snippet, scale: scale, glyphs: overlayGlyphs, bubbleOffset: bubbleOffset)
    infoWindowCache = picture.map { (key, $0) }
    return picture
  }

  /// The info window as an accessibility element (the SDK lists the open info window).
  func infoWindowAccessibilityElement() -> MarkerAccessibilityElement? {
    guard let (picture, point, marker) = openInfoWindow() else { return nil }
    let width = Double(picture.image.width) / picture.scale
    let height = Double(picture.image.height) / picture.scale
    let label = [marker.title, marker.snippet].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    var element = MarkerAccessibilityElement(
      label: label.isEmpty ? nil : label, title: marker.title, snippet: marker.snippet,
      frame: (point.x - picture.anchor.x / picture.scale, point.y - picture.anchor.y / picture.scale, width, height),
      isInfoWindow: true)
    element.kind = "infoWindow"
    return element
  }
}

/// What an info window picture was made from.
struct InfoWindowKey: Equatable {
  let title: String?
  let snippet: String?
  let scale: Double
  let bubbleOffset: Double
}

/// Where a default info window's bubble lies on the screen.
enum InfoWindowPlacement {
  /// The bubble of `picture` (without its shadow's margin) with its anchor on `point`, points.
  static func bubbleFrame(_ picture: OverlayPicture, at point: ScreenPoint) -> (
    x: Double, y: Double, width: Double, height: Double
  ) {
    let margin = InfoWindowPainter.margin
    let left = point.x - picture.anchor.x / picture.scale
    let top = point.y - picture.anchor.y / picture.scale
    return (
      left + margin, top + margin, Double(picture.image.width) / picture.scale - 2 * margin,
      Double(picture.image.height) / picture.scale - 2 * margin - InfoWindowPainter.tailHeight
    )
  }
}
