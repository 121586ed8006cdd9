import TesseraGeo
import TesseraImage
import TesseraNumbers

/// The my-location layers, over the overlays: a translucent accuracy circle, a heading cone,
/// a soft shadow and a blue dot ringed in white.
enum MyLocationLayers {
  /// Google's location blue.
  static let locationBlue = Color(r: 66, g: 133, b: 244)

  static func add(_ fix: LocationFix, to style: inout OverlayStyleBuilder) {
    var fill = locationBlue
    fill.alpha = 0.15
    var outline = locationBlue
    outline.alpha = 0.35
    if fix.horizontalAccuracy > 0 {
      let ring = OverlayGeometry.circle(center: fix.coordinate, radius: fix.horizontalAccuracy)
      style.addArea([ring], fill: fill, stroke: outline, width: 1)
    }
    let part = "my-location"
    style.addPoint(fix.coordinate, part: part)
    if let heading = fix.heading, heading.isFinite {
      style.addImage(OverlayPictures.headingCone(scale: style.pixelRatio), named: "my-location-cone")
      var cone = OverlayLayer(.symbol, source: .features, part: part)
      cone.setIconImage("my-location-cone")
      cone.setIconRotate(heading)
      cone.setIconRotationAlignment(.map)
      cone.setIconPitchAlignment(.map)
      cone.setIconAllowOverlap(true)
      cone.setIconIgnorePlacement(true)
      style.addLayer(cone)
    }
    var shadow = OverlayLayer(.circle, source: .features, part: part)
    shadow.setCircleRadius(11)
    shadow.setCircleColor(Color(red: 0, green: 0, blue: 0, alpha: 0.18))
    shadow.setCircleBlur(0.4)
    style.addLayer(shadow)
    var dot = OverlayLayer(.circle, source: .features, part: part)
    dot.setCircleRadius(6.5)
    dot.setCircleColor(locationBlue)
    dot.setCircleStrokeWidth(2.5)
    dot.setCircleStrokeColor(.white)
    style.addLayer(dot)
  }
}
