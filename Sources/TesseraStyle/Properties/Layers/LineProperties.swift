import TesseraImage
import TesseraNumbers

/// The properties of `line` layers.
package enum LineProperties {
  package static let cap = StyleProperty<LineCap>.layout("line-cap", .butt)
  package static let join = StyleProperty<LineJoin>.layout("line-join", .miter, dataDriven: true)
  package static let miterLimit = StyleProperty<Double>.layout("line-miter-limit", 2)
  package static let roundLimit = StyleProperty<Double>.layout("line-round-limit", 1.05)
  package static let sortKey = StyleProperty<Double?>.layout("line-sort-key", nil, dataDriven: true)
  package static let opacity = StyleProperty<Double>.paint("line-opacity", 1, dataDriven: true, minimum: 0)
  package static let color = StyleProperty<Color>.paint("line-color", .black, dataDriven: true)
  package static let translate = StyleProperty<[Double]>.paint("line-translate", [0, 0], type: .numberArray(count: 2))
  package static let translateAnchor = StyleProperty<ReferenceFrame>.paint("line-translate-anchor", .map)
  /// Points.
  package static let width = StyleProperty<Double>.paint("line-width", 1, dataDriven: true, minimum: 0)
  /// Points between the two sides of a casing.
  package static let gapWidth = StyleProperty<Double>.paint("line-gap-width", 0, dataDriven: true, minimum: 0)
  /// Points, to the right of the direction of travel.
  package static let offset = StyleProperty<Double>.paint("line-offset", 0, dataDriven: true)
  /// Points.
  package static let blur = StyleProperty<Double>.paint("line-blur", 0, dataDriven: true, minimum: 0)
  /// Dash and gap lengths in line widths; unset: a solid line.
  package static let dashArray = StyleProperty<[Double]?>.paint("line-dasharray", nil, interpolatable: false)
  /// The sprite image repeated along the line instead of its colour (stretched to the line's
  /// width); unset: the colour.
  package static let pattern = StyleProperty<String?>.paint("line-pattern", nil, dataDriven: true)

  /// The colour along the line by `["line-progress"]` (0 at its start, 1 at its end; needs a
  /// GeoJSON source with `lineMetrics`), instead of `line-color`; unset: the colour.
  package static let gradient = StyleProperty<Color?>.paint("line-gradient", nil)

  static let all = [
    cap.spec, join.spec, miterLimit.spec, roundLimit.spec, sortKey.spec, opacity.spec, color.spec, translate.spec,
    translateAnchor.spec, width.spec, gapWidth.spec, offset.spec, blur.spec, dashArray.spec,
    pattern.spec, gradient.spec,
  ]
}
