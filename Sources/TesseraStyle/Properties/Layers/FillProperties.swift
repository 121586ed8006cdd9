import TesseraImage
import TesseraNumbers

/// The properties of `fill` layers.
package enum FillProperties {
  package static let antialias = StyleProperty<Bool>.paint("fill-antialias", true)
  package static let opacity = StyleProperty<Double>.paint("fill-opacity", 1, dataDriven: true, minimum: 0)
  package static let color = StyleProperty<Color>.paint("fill-color", .black, dataDriven: true)
  /// The outline's colour; unset: the fill colour.
  package static let outlineColor = StyleProperty<Color?>.paint("fill-outline-color", nil, dataDriven: true)
  package static let translate = StyleProperty<[Double]>.paint("fill-translate", [0, 0], type: .numberArray(count: 2))
  package static let translateAnchor = StyleProperty<ReferenceFrame>.paint("fill-translate-anchor", .map)
  /// The sprite image repeated over the fill instead of its colour; unset: the colour.
  package static let pattern = StyleProperty<String?>.paint("fill-pattern", nil, dataDriven: true)
  package static let sortKey = StyleProperty<Double?>.layout("fill-sort-key", nil, dataDriven: true)

  static let all = [
    antialias.spec, opacity.spec, color.spec, outlineColor.spec, translate.spec, translateAnchor.spec, sortKey.spec,
    pattern.spec,
  ]
}
