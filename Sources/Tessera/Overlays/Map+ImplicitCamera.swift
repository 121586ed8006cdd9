import Foundation
import TesseraGeo
import TesseraNumbers

extension Map {
  /// Everything drawn on the map that a view fitted to its content must show: marker
  /// positions, overlay paths and outlines, ground overlay corners, heatmap points and the
  /// my-location fix with its accuracy circle (tile overlays cover the world and do not count).
  public var contentCoordinates: [Coordinate] {
    var coordinates = markers.map(\.position)
    for overlay in overlayLayer.overlays {
      switch overlay {
      case let polyline as Polyline:
        coordinates += polyline.geodesic ? OverlayGeometry.geodesic(polyline.path) : polyline.path
      case let polygon as Polygon:
        coordinates += polygon.geodesic ? OverlayGeometry.geodesic(polygon.path) : polygon.path
      case let circle as Circle:
        coordinates += OverlayGeometry.circle(center: circle.position, radius: circle.radius, count: 36)
      case let ground as GroundOverlay:
        coordinates += ground.corners ?? []
      case let heatmap as HeatmapOverlay:
        coordinates += heatmap.points.map(\.coordinate)
      default:
        continue
      }
    }
    if overlayLayer.isMyLocationEnabled, let fix = overlayLayer.myLocation {
      coordinates += OverlayGeometry.circle(center: fix.coordinate, radius: fix.horizontalAccuracy, count: 36)
    }
    return coordinates
  }

  /// Places the camera as the Static Maps API does without `center` and `zoom`: centred on
  /// the bounds of the map's content (``contentCoordinates``) and `visible` coordinates, at
  /// the highest whole zoom (at most `maximumZoom`) that shows them all inside `padding` points
  /// of the view's edges (bearing and tilt stay). Does nothing when there is nothing to show.
  /// With `wholeZoom` false the zoom is the exact one that fits (tileserver-gl's `auto`).
  public func fitCameraToContent(
    visible: [Coordinate] = [], padding: Double = 24, maximumZoom: Double = 18, wholeZoom: Bool = true
  ) {
    let bounds = CoordinateBounds(coordinates: contentCoordinates + visible)
    guard bounds.isValid else { return }
    guard let fitted = camera(for: bounds, insets: EdgeInsets(all: padding)) else { return }
    moveCamera(.setTarget(fitted.target, zoom: min(wholeZoom ? fitted.zoom.rounded(.down) : fitted.zoom, maximumZoom)))
  }
}
