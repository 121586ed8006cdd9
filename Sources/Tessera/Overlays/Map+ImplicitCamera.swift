import Foundation
import TesseraGeo
import TesseraNumbers

extension Map {
  /// Everything drawn on the map that a view fitted to its content must show: marker
  /// positions, overlay paths and outlines, ground overlay corners, heatmap points and the
  /// my-location fix with its accuracy circle (tile overlays cover the world and do not count).
  public var contentCoordinates: [Coordinate] {
    SceneContent.coordinates(
      markers: markers, overlays: overlayLayer.overlays,
      myLocation: overlayLayer.isMyLocationEnabled ? overlayLayer.myLocation : nil)
  }

  /// Places the camera as the Static Maps API does without `center` and `zoom`: centred on
  /// the bounds of the map's content (``contentCoordinates``) and `visible` coordinates, at
  /// the highest whole zoom (at most `maximumZoom`) that shows them all inside `padding` points
  /// of the view's edges (bearing and tilt stay). Does nothing when there is nothing to show.
  /// With `wholeZoom` false the zoom is the exact one that fits (tileserver-gl's `auto`).
  public func fitCameraToContent(
    visible: [Coordinate] = [], padding: Double = 24, maximumZoom: Double = 18, wholeZoom: Bool = true
  ) {
    state.fit(to: contentCoordinates + visible, padding: padding, maximumZoom: maximumZoom, wholeZoom: wholeZoom)
  }
}
