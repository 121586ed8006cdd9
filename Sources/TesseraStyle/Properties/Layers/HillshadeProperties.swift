import TesseraImage
import TesseraNumbers

/// The properties of `hillshade` layers.
package enum HillshadeProperties {
  /// Degrees clockwise from the top of the viewport (or north, anchored to the map).
  package static let illuminationDirection = StyleProperty<Double>.paint("hillshade-illumination-direction", 335)
  package static let illuminationAnchor = StyleProperty<ReferenceFrame>.paint(
    "hillshade-illumination-anchor", .viewport)
  package static let exaggeration = StyleProperty<Double>.paint("hillshade-exaggeration", 0.5, minimum: 0)
  package static let shadowColor = StyleProperty<Color>.paint("hillshade-shadow-color", .black)
  package static let highlightColor = StyleProperty<Color>.paint("hillshade-highlight-color", .white)
  package static let accentColor = StyleProperty<Color>.paint("hillshade-accent-color", .black)

  static let all = [
    illuminationDirection.spec, illuminationAnchor.spec, exaggeration.spec, shadowColor.spec, highlightColor.spec,
    accentColor.spec,
  ]
}
