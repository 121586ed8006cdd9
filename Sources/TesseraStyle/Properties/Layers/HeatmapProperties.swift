import TesseraImage
import TesseraJSON
import TesseraNumbers

/// The properties of `heatmap` layers.
package enum HeatmapProperties {
  /// Points: how far one point's kernel reaches.
  package static let radius = StyleProperty<Double>.paint("heatmap-radius", 30, dataDriven: true, minimum: 1)
  /// How much one point counts.
  package static let weight = StyleProperty<Double>.paint("heatmap-weight", 1, dataDriven: true, minimum: 0)
  /// Multiplies every weight (by zoom, to keep a heatmap's look across zooms).
  package static let intensity = StyleProperty<Double>.paint("heatmap-intensity", 1, minimum: 0)
  /// The colour of each density (0…1, `["heatmap-density"]`); by default MapLibre's ramp from
  /// transparent blue through royal blue, cyan, lime and yellow to red.
  package static let color: StyleProperty<Color> = {
    let ramp: JSONValue = [
      "interpolate", ["linear"], ["heatmap-density"], 0, "rgba(0, 0, 255, 0)", 0.1, "royalblue", 0.3, "cyan", 0.5,
      "lime", 0.7, "yellow", 1, "red",
    ]
    let plain = StyleProperty<Color>.paint("heatmap-color", .transparent)
    let parsed = try! PropertyValue.parse(ramp, spec: plain.spec, path: "heatmap-color")
    let spec = PropertySpec(
      name: plain.spec.name, type: .color, defaultValue: plain.spec.defaultValue, isPaint: true,
      defaultExpression: parsed.expression)
    return StyleProperty(spec: spec, defaultValue: .transparent)
  }()
  package static let opacity = StyleProperty<Double>.paint("heatmap-opacity", 1, minimum: 0)

  static let all = [radius.spec, weight.spec, intensity.spec, color.spec, opacity.spec]
}
