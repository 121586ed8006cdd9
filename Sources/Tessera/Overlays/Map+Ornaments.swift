import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

extension Map {
  /// The attribution text drawn now: the map's setting applied to the current style's
  /// sources; nil when there is none.
  public var attributionText: String? {
    MapOrnaments.attributionText(attribution, styleRenderer: styleRenderer)
  }

  /// Lays the open info window, the attribution and the scale bar over a frame just read back.
  func drawOrnaments(onto image: inout RGBAImage) {
    let viewport = state.viewport
    let scale = viewport.scale
    let padding = viewport.padding
    if let (picture, point, _) = openInfoWindow() {
      OverlayCompositor.composite(picture, at: point, scale: scale, onto: &image)
    }
    let margin = MapOrnaments.margin
    if let text = attributionText {
      let maximumWidth = viewport.width - padding.left - padding.right - 2 * margin
      let key = "\(text)|\(maximumWidth)|\(scale)"
      let picture: RGBAImage?
      if let cached = attributionCache, cached.key == key {
        picture = cached.image
      } else {
        picture =
          maximumWidth > 0
          ? MapOrnaments.attribution(text, maximumWidth: maximumWidth, scale: scale, glyphs: overlayGlyphs) : nil
        attributionCache = (key, picture)
      }
      if let picture {
        OverlayCompositor.composite(
          picture, left: Int(clamping: ((viewport.width - padding.right - margin) * scale).rounded()) - picture.width,
          top: Int(clamping: ((viewport.height - padding.bottom - margin) * scale).rounded()) - picture.height,
          onto: &image)
      }
    }
    if showsScaleBar {
      let target = state.camera.target
      let metersPerPoint = 1 / state.projection.points(forMeters: 1, at: target)
      if let bar = MapOrnaments.scaleBar(metersPerPoint: metersPerPoint, scale: scale, glyphs: overlayGlyphs) {
        OverlayCompositor.composite(
          bar, left: Int(clamping: ((padding.left + margin) * scale).rounded()),
          top: Int(clamping: ((viewport.height - padding.bottom - margin) * scale).rounded()) - bar.height, onto: &image
        )
      }
    }
  }
}
