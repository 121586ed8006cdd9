import TesseraImage
import TesseraNumbers

/// The properties of `background` layers.
package enum BackgroundProperties {
  package static let color = StyleProperty<Color>.paint("background-color", .black)
  package static let opacity = StyleProperty<Double>.paint("background-opacity", 1, minimum: 0)

  /// The sprite image repeated over the view instead of the colour; unset: the colour.
  package static let pattern = StyleProperty<String?>.paint("background-pattern", nil)

  static let all = [color.spec, opacity.spec, pattern.spec]
}
