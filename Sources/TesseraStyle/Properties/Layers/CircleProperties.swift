import TesseraImage
import TesseraNumbers

/// The properties of `circle` layers.
public enum CircleProperties {
  public static let sortKey = StyleProperty<Double?>.layout("circle-sort-key", nil, dataDriven: true)
  /// Points.
  public static let radius = StyleProperty<Double>.paint("circle-radius", 5, dataDriven: true, minimum: 0)
  public static let color = StyleProperty<Color>.paint("circle-color", .black, dataDriven: true)
  /// Fraction of the radius.
  public static let blur = StyleProperty<Double>.paint("circle-blur", 0, dataDriven: true)
  public static let opacity = StyleProperty<Double>.paint("circle-opacity", 1, dataDriven: true, minimum: 0)
  public static let translate = StyleProperty<[Double]>.paint(
    "circle-translate", [0, 0], type: .numberArray(count: 2))
  public static let translateAnchor = StyleProperty<ReferenceFrame>.paint("circle-translate-anchor", .map)
  public static let pitchScale = StyleProperty<ReferenceFrame>.paint("circle-pitch-scale", .map)
  public static let pitchAlignment = StyleProperty<ReferenceFrame>.paint("circle-pitch-alignment", .viewport)
  /// Points.
  public static let strokeWidth = StyleProperty<Double>.paint(
    "circle-stroke-width", 0, dataDriven: true, minimum: 0)
  public static let strokeColor = StyleProperty<Color>.paint("circle-stroke-color", .black, dataDriven: true)
  public static let strokeOpacity = StyleProperty<Double>.paint(
    "circle-stroke-opacity", 1, dataDriven: true, minimum: 0)

  static let all = [
    sortKey.spec, radius.spec, color.spec, blur.spec, opacity.spec, translate.spec, translateAnchor.spec,
    pitchScale.spec, pitchAlignment.spec, strokeWidth.spec, strokeColor.spec, strokeOpacity.spec,
  ]
}
