import TesseraImage
import TesseraJSON
import TesseraNumbers

/// A style layer an overlay adds (maplibre-native's annotations call `setLineColor`, this is
/// that): its type, source and filter, and paint and layout properties set through typed
/// setters taking colours, numbers in the units the style uses and enumerations. Only
/// ``OverlayStyleBuilder`` writes it into the style it hands the renderer.
package struct OverlayLayer {
  /// The style layer types overlays draw with.
  package enum LayerType: String, Sendable {
    case fill, line, raster, heatmap, circle, symbol
  }

  /// Where the layer's features come from.
  package enum Source: Equatable, Sendable {
    /// The builder's shared GeoJSON source of lines, areas and points.
    case features
    /// The shared GeoJSON source with line metrics (for `line-gradient`).
    case lineMetrics
    /// A source the overlay added itself (``OverlayStyleBuilder/addImageSource(_:corners:name:)``…).
    case own(String)
  }

  /// `line-cap`.
  package enum LineCap: String, Sendable { case butt, round, square }
  /// `line-join`.
  package enum LineJoin: String, Sendable { case bevel, round, miter }
  /// `icon-rotation-alignment` and `icon-pitch-alignment`.
  package enum Alignment: String, Sendable { case map, viewport, auto }

  package let type: LayerType
  package let source: Source
  /// Only features whose property `key` is `value` draw (nil: all of the source).
  var filter: (key: String, value: String)?
  private(set) var layout = JSONObject()
  private(set) var paint = JSONObject()

  package init(_ type: LayerType, source: Source, part: String? = nil) {
    self.type = type
    self.source = source
    filter = part.map { ("part", $0) }
  }

  // MARK: Lines

  package mutating func setLineCap(_ cap: LineCap) { layout["line-cap"] = .string(cap.rawValue) }
  package mutating func setLineJoin(_ join: LineJoin) { layout["line-join"] = .string(join.rawValue) }
  /// Points.
  package mutating func setLineWidth(_ points: Double) { paint["line-width"] = .number(points) }
  package mutating func setLineColor(_ color: Color) { paint["line-color"] = Self.encode(color) }
  /// Dashes and gaps in line widths, dash first.
  package mutating func setLineDashArray(_ widths: [Double]) {
    paint["line-dasharray"] = .array(widths.map { .number($0) })
  }
  /// A colour from `from` at the line's start to `to` at its end (needs ``Source/lineMetrics``).
  package mutating func setLineGradient(from: Color, to: Color) {
    paint["line-gradient"] = ["interpolate", ["linear"], ["line-progress"], 0, Self.encode(from), 1, Self.encode(to)]
  }

  // MARK: Rasters

  /// 0…1 (clamped).
  package mutating func setRasterOpacity(_ opacity: Double) {
    paint["raster-opacity"] = .number(min(max(opacity, 0), 1))
  }
  /// Milliseconds.
  package mutating func setRasterFadeDuration(_ milliseconds: Double) {
    paint["raster-fade-duration"] = .number(milliseconds)
  }

  // MARK: Heatmaps

  /// The feature property holding each point's weight.
  package mutating func setHeatmapWeight(property: String) { paint["heatmap-weight"] = ["get", .string(property)] }
  /// Points.
  package mutating func setHeatmapRadius(_ points: Double) { paint["heatmap-radius"] = .number(points) }
  package mutating func setHeatmapIntensity(_ intensity: Double) { paint["heatmap-intensity"] = .number(intensity) }
  /// 0…1 (clamped).
  package mutating func setHeatmapOpacity(_ opacity: Double) {
    paint["heatmap-opacity"] = .number(min(max(opacity, 0), 1))
  }
  /// Colours at densities, interpolated linearly (densities ascending, 0…1).
  package mutating func setHeatmapColor(_ stops: [(density: Double, color: Color)]) {
    var ramp: [JSONValue] = ["interpolate", ["linear"], ["heatmap-density"]]
    for stop in stops { ramp += [.number(stop.density), Self.encode(stop.color)] }
    paint["heatmap-color"] = .array(ramp)
  }

  // MARK: Circles

  /// Points.
  package mutating func setCircleRadius(_ points: Double) { paint["circle-radius"] = .number(points) }
  package mutating func setCircleColor(_ color: Color) { paint["circle-color"] = Self.encode(color) }
  /// A share of the radius, 0…1.
  package mutating func setCircleBlur(_ share: Double) { paint["circle-blur"] = .number(share) }
  /// Points.
  package mutating func setCircleStrokeWidth(_ points: Double) { paint["circle-stroke-width"] = .number(points) }
  package mutating func setCircleStrokeColor(_ color: Color) { paint["circle-stroke-color"] = Self.encode(color) }

  // MARK: Icons

  /// The name of a picture the builder holds (``OverlayStyleBuilder/addImage(_:named:)``).
  package mutating func setIconImage(_ name: String) { layout["icon-image"] = .string(name) }
  /// Degrees clockwise.
  package mutating func setIconRotate(_ degrees: Double) { layout["icon-rotate"] = .number(degrees) }
  package mutating func setIconRotationAlignment(_ alignment: Alignment) {
    layout["icon-rotation-alignment"] = .string(alignment.rawValue)
  }
  package mutating func setIconPitchAlignment(_ alignment: Alignment) {
    layout["icon-pitch-alignment"] = .string(alignment.rawValue)
  }
  package mutating func setIconAllowOverlap(_ allow: Bool) { layout["icon-allow-overlap"] = .bool(allow) }
  package mutating func setIconIgnorePlacement(_ ignore: Bool) { layout["icon-ignore-placement"] = .bool(ignore) }

  // MARK: Values of each feature (the builder's shared layers)

  /// `fill-color` or `line-color` from the feature's colour (``OverlayStyleBuilder/FeatureStyle``).
  mutating func setColorFromFeature() {
    paint[type == .fill ? "fill-color" : "line-color"] = [
      "rgba", ["get", "r"], ["get", "g"], ["get", "b"], ["get", "a"],
    ]
  }
  /// `line-width` from the feature's `width` (points).
  mutating func setLineWidthFromFeature() { paint["line-width"] = ["get", "width"] }
  /// `line-pattern` from the feature's `stamp` (a picture's name).
  mutating func setLinePatternFromFeature() { paint["line-pattern"] = ["get", "stamp"] }

  // MARK: Encoding

  /// The colour as the style's `rgba` expression: channels of 0…255 in whole steps (colours
  /// are drawn at 8 bits a channel), alpha 0…1; the style folds it into a constant.
  static func encode(_ color: Color) -> JSONValue {
    let channels = channels(color)
    return ["rgba", .number(channels.red), .number(channels.green), .number(channels.blue), .number(channels.alpha)]
  }

  /// The channels of `color` in the style's `rgba` units: red, green and blue in whole steps
  /// of 0…255, alpha 0…1 (all clamped).
  static func channels(_ color: Color) -> (red: Double, green: Double, blue: Double, alpha: Double) {
    func channel(_ value: Double) -> Double { Double(Int(clamping: (min(max(value, 0), 1) * 255).rounded())) }
    return (channel(color.red), channel(color.green), channel(color.blue), min(max(color.alpha, 0), 1))
  }

  /// The layer's object in the style, with `id` and `sourceID` its source's name.
  func definition(id: String, sourceID: String) -> JSONValue {
    var layer: JSONObject = ["id": .string(id), "type": .string(type.rawValue), "source": .string(sourceID)]
    if let filter { layer["filter"] = ["==", ["get", .string(filter.key)], .string(filter.value)] }
    if layout.count > 0 { layer["layout"] = .object(layout) }
    if paint.count > 0 { layer["paint"] = .object(paint) }
    return .object(layer)
  }
}
