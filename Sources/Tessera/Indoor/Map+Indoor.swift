import TesseraGeo
import TesseraJSON
import TesseraNumbers

extension Map {
  /// The accessibility element of the indoor level shown: labelled with the venue and the
  /// level's name, framed by the venue's footprints in view; nil below zoom 17, without a
  /// floor plan, or when the venue is out of view.
  func indoorAccessibilityElement() -> MarkerAccessibilityElement? {
    guard let indoor = indoorDisplay, state.camera.zoom >= IndoorStyle.minimumZoom + 1 else { return nil }
    let projection = self.projection
    var points: [ScreenPoint?] = []
    for polygon in IndoorStyle.polygons(indoor.venue.footprints) {
      for ring in polygon.array ?? [] {
        for position in ring.array ?? [] {
          guard let pair = position.array, pair.count >= 2, let lng = pair[0].number, let lat = pair[1].number else {
            continue
          }
          points.append(projection.point(for: Coordinate(latitude: lat, longitude: lng)))
        }
      }
    }
    guard let frame = ScreenRect(points) else { return nil }
    let viewport = state.viewport
    let left = max(frame.x, 0)
    let top = max(frame.y, 0)
    let right = min(frame.x + frame.width, viewport.width)
    let bottom = min(frame.y + frame.height, viewport.height)
    guard right > left, bottom > top else { return nil }
    let language = styleSettings.language
    let venue = IndoorVenue.label(indoor.venue.names, language: language)
    let level = indoor.activeLevel.name(language: language)
    let label = (venue.map { "\($0), " } ?? "") + "level \(level)"
    var element = MarkerAccessibilityElement(
      label: label, title: level, snippet: venue, frame: (left, top, right - left, bottom - top))
    element.kind = "indoorLevel"
    return element
  }
}
