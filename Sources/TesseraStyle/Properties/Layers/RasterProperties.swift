import TesseraNumbers

/// The properties of `raster` layers.
public enum RasterProperties {
  public static let opacity = StyleProperty<Double>.paint("raster-opacity", 1, minimum: 0)
  /// Degrees.
  public static let hueRotate = StyleProperty<Double>.paint("raster-hue-rotate", 0)
  public static let brightnessMin = StyleProperty<Double>.paint("raster-brightness-min", 0)
  public static let brightnessMax = StyleProperty<Double>.paint("raster-brightness-max", 1)
  public static let saturation = StyleProperty<Double>.paint("raster-saturation", 0)
  public static let contrast = StyleProperty<Double>.paint("raster-contrast", 0)
  public static let resampling = StyleProperty<RasterResampling>.paint("raster-resampling", .linear)
  /// Milliseconds (a still image shows tiles fully faded in).
  public static let fadeDuration = StyleProperty<Double>.paint("raster-fade-duration", 300, minimum: 0)

  static let all = [
    opacity.spec, hueRotate.spec, brightnessMin.spec, brightnessMax.spec, saturation.spec, contrast.spec,
    resampling.spec, fadeDuration.spec,
  ]
}
