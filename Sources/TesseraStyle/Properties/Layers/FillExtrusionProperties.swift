import TesseraImage
import TesseraNumbers

/// The properties of `fill-extrusion` layers.
package enum FillExtrusionProperties {
  package static let opacity = StyleProperty<Double>.paint("fill-extrusion-opacity", 1, minimum: 0)
  package static let color = StyleProperty<Color>.paint("fill-extrusion-color", .black, dataDriven: true)
  package static let translate = StyleProperty<[Double]>.paint(
    "fill-extrusion-translate", [0, 0], type: .numberArray(count: 2))
  package static let translateAnchor = StyleProperty<ReferenceFrame>.paint("fill-extrusion-translate-anchor", .map)
  /// Metres.
  package static let height = StyleProperty<Double>.paint(
    "fill-extrusion-height", 0, dataDriven: true, minimum: 0)
  /// Metres.
  package static let base = StyleProperty<Double>.paint("fill-extrusion-base", 0, dataDriven: true, minimum: 0)
  package static let verticalGradient = StyleProperty<Bool>.paint("fill-extrusion-vertical-gradient", true)
  /// The sprite image repeated over roofs and walls instead of the colour; unset: the colour.
  package static let pattern = StyleProperty<String?>.paint("fill-extrusion-pattern", nil, dataDriven: true)

  static let all = [
    opacity.spec, color.spec, translate.spec, translateAnchor.spec, pattern.spec,
    height.spec, base.spec, verticalGradient.spec,
  ]
}
