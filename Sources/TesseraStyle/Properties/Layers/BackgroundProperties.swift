import TesseraImage

/// The properties of `background` layers.
public enum BackgroundProperties {
  public static let color = StyleProperty<Color>.paint("background-color", .black)
  public static let opacity = StyleProperty<Double>.paint("background-opacity", 1, minimum: 0)

  static let all = [color.spec, opacity.spec, .unsupportedPaint("background-pattern")]
}
