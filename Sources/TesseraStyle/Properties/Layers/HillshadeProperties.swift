import TesseraImage
import TesseraNumbers

/// The properties of `hillshade` layers.
public enum HillshadeProperties {
  /// Degrees clockwise from the top of the viewport (or north, anchored to the map).
  public static let illuminationDirection = StyleProperty<Double>.paint("hillshade-illumination-direction", 335)
  public static let illuminationAnchor = StyleProperty<ReferenceFrame>.paint(
    "hillshade-illumination-anchor", .viewport)
  public static let exaggeration = StyleProperty<Double>.paint("hillshade-exaggeration", 0.5, minimum: 0)
  public static let shadowColor = StyleProperty<Color>.paint("hillshade-shadow-color", .black)
  public static let highlightColor = StyleProperty<Color>.paint("hillshade-highlight-color", .white)
  public static let accentColor = StyleProperty<Color>.paint("hillshade-accent-color", .black)

  static let all = [
    illuminationDirection.spec, illuminationAnchor.spec, exaggeration.spec, shadowColor.spec, highlightColor.spec,
    accentColor.spec,
  ]
}
