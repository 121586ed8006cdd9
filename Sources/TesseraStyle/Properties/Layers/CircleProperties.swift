import TesseraImage
import TesseraNumbers

/// The properties of `circle` layers.
package enum CircleProperties {
  package static let sortKey = StyleProperty<Double?>.layout("circle-sort-key", nil, dataDriven: true)
  /// Points.
  package static let radius = StyleProperty<Double>.paint("circle-radius", 5, dataDriven: true, minimum: 0)
  package static let color = StyleProperty<Color>.paint("circle-color", .black, dataDriven: true)
  /// Fraction of the radius.
  package static let blur = StyleProperty<Double>.paint("circle-blur", 0, dataDriven: true)
  package static let opacity = StyleProperty<Double>.paint("circle-opacity", 1, dataDriven: true, minimum: 0)
  package static let translate = StyleProperty<[Double]>.paint(
    "circle-translate", [0, 0], type: .numberArray(count: 2))
  package static let translateAnchor = StyleProperty<ReferenceFrame>.paint("circle-translate-anchor", .map)
  package static let pitchScale = StyleProperty<ReferenceFrame>.paint("circle-pitch-scale", .map)
  package static let pitchAlignment = StyleProperty<ReferenceFrame>.paint("circle-pitch-alignment", .viewport)
  /// Points.
  package static let strokeWidth = StyleProperty<Double>.paint(
    "circle-stroke-width", 0, dataDriven: true, minimum: 0)
  package static let strokeColor = StyleProperty<Color>.paint("circle-stroke-color", .black, dataDriven: true)
  package static let strokeOpacity = StyleProperty<Double>.paint(
    "circle-stroke-opacity", 1, dataDriven: true, minimum: 0)

  static let all = [
    sortKey.spec, radius.spec, color.spec, blur.spec, opacity.spec, translate.spec, translateAnchor.spec,
    pitchScale.spec, pitchAlignment.spec, strokeWidth.spec, strokeColor.spec, strokeOpacity.spec,
  ]
}
