import TesseraNumbers

/// The properties of `raster` layers.
package enum RasterProperties {
  package static let opacity = StyleProperty<Double>.paint("raster-opacity", 1, minimum: 0)
  /// Degrees.
  package static let hueRotate = StyleProperty<Double>.paint("raster-hue-rotate", 0)
  package static let brightnessMin = StyleProperty<Double>.paint("raster-brightness-min", 0)
  package static let brightnessMax = StyleProperty<Double>.paint("raster-brightness-max", 1)
  package static let saturation = StyleProperty<Double>.paint("raster-saturation", 0)
  package static let contrast = StyleProperty<Double>.paint("raster-contrast", 0)
  package static let resampling = StyleProperty<RasterResampling>.paint("raster-resampling", .linear)
  /// Milliseconds (a still image shows tiles fully faded in).
  package static let fadeDuration = StyleProperty<Double>.paint("raster-fade-duration", 300, minimum: 0)

  static let all = [
    opacity.spec, hueRotate.spec, brightnessMin.spec, brightnessMax.spec, saturation.spec, contrast.spec,
    resampling.spec, fadeDuration.spec,
  ]
}
