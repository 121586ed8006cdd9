import TesseraImage

/// The value type of a style property.
public enum PropertyType: Sendable, Equatable {
  case color
  case number
  case boolean
  case string
  case enumeration([String])
  /// An array of numbers, of a fixed length when given.
  case numberArray(count: Int?)
  /// Properties Tessera parses but does not draw (patterns, images, text).
  case unsupported
}

/// What the style specification says about one property.
public struct PropertySpec: Sendable {
  public let name: String
  public let type: PropertyType
  public let defaultValue: StyleValue
  /// Whether it is a paint (else layout) property.
  public let isPaint: Bool
  /// Whether feature data may drive it (data expressions, property functions).
  public let isDataDriven: Bool
  /// The smallest valid value of a number property.
  public let minimum: Double?

  /// Whether values can be interpolated (numbers, colours, number arrays).
  public var isInterpolatable: Bool {
    switch type {
    case .color, .number: return true
    case .numberArray: return name != "line-dasharray"
    default: return false
    }
  }
}

/// The kinds of style layers.
public enum LayerType: String, Sendable, CaseIterable {
  case background, fill, line, circle, raster, hillshade
  case fillExtrusion = "fill-extrusion"
  case symbol, heatmap
}

extension PropertySpec {
  private static func paint(
    _ name: String, _ type: PropertyType, _ defaultValue: StyleValue, dataDriven: Bool = false, minimum: Double? = nil
  ) -> PropertySpec {
    PropertySpec(
      name: name, type: type, defaultValue: defaultValue, isPaint: true, isDataDriven: dataDriven, minimum: minimum)
  }

  private static func layout(_ name: String, _ type: PropertyType, _ defaultValue: StyleValue, dataDriven: Bool = false)
    -> PropertySpec
  {
    PropertySpec(
      name: name, type: type, defaultValue: defaultValue, isPaint: false, isDataDriven: dataDriven, minimum: nil)
  }

  static let black = StyleValue.color(.black)
  static let anchor = PropertyType.enumeration(["map", "viewport"])
  static let zeroPair = StyleValue.array([.number(0), .number(0)])

  /// The properties of each layer type (style spec v8), by name.
  public static let byLayerType: [LayerType: [String: PropertySpec]] = {
    let visibility = layout("visibility", .enumeration(["visible", "none"]), .string("visible"))
    var table: [LayerType: [PropertySpec]] = [:]
    table[.background] = [
      paint("background-color", .color, black), paint("background-opacity", .number, .number(1), minimum: 0),
      paint("background-pattern", .unsupported, .null),
    ]
    table[.fill] = [
      paint("fill-antialias", .boolean, .bool(true)),
      paint("fill-opacity", .number, .number(1), dataDriven: true, minimum: 0),
      paint("fill-color", .color, black, dataDriven: true),
      paint("fill-outline-color", .color, .null, dataDriven: true),
      paint("fill-translate", .numberArray(count: 2), zeroPair), paint("fill-translate-anchor", anchor, .string("map")),
      paint("fill-pattern", .unsupported, .null), layout("fill-sort-key", .number, .null, dataDriven: true),
    ]
    table[.line] = [
      layout("line-cap", .enumeration(["butt", "round", "square"]), .string("butt")),
      layout("line-join", .enumeration(["bevel", "round", "miter"]), .string("miter"), dataDriven: true),
      layout("line-miter-limit", .number, .number(2)), layout("line-round-limit", .number, .number(1.05)),
      layout("line-sort-key", .number, .null, dataDriven: true),
      paint("line-opacity", .number, .number(1), dataDriven: true, minimum: 0),
      paint("line-color", .color, black, dataDriven: true),
      paint("line-translate", .numberArray(count: 2), zeroPair), paint("line-translate-anchor", anchor, .string("map")),
      paint("line-width", .number, .number(1), dataDriven: true, minimum: 0),
      paint("line-gap-width", .number, .number(0), dataDriven: true, minimum: 0),
      paint("line-offset", .number, .number(0), dataDriven: true),
      paint("line-blur", .number, .number(0), dataDriven: true, minimum: 0),
      paint("line-dasharray", .numberArray(count: nil), .null), paint("line-pattern", .unsupported, .null),
      paint("line-gradient", .unsupported, .null),
    ]
    table[.circle] = [
      layout("circle-sort-key", .number, .null, dataDriven: true),
      paint("circle-radius", .number, .number(5), dataDriven: true, minimum: 0),
      paint("circle-color", .color, black, dataDriven: true),
      paint("circle-blur", .number, .number(0), dataDriven: true),
      paint("circle-opacity", .number, .number(1), dataDriven: true, minimum: 0),
      paint("circle-translate", .numberArray(count: 2), zeroPair),
      paint("circle-translate-anchor", anchor, .string("map")),
      paint("circle-pitch-scale", anchor, .string("map")), paint("circle-pitch-alignment", anchor, .string("viewport")),
      paint("circle-stroke-width", .number, .number(0), dataDriven: true, minimum: 0),
      paint("circle-stroke-color", .color, black, dataDriven: true),
      paint("circle-stroke-opacity", .number, .number(1), dataDriven: true, minimum: 0),
    ]
    table[.raster] = [
      paint("raster-opacity", .number, .number(1), minimum: 0), paint("raster-hue-rotate", .number, .number(0)),
      paint("raster-brightness-min", .number, .number(0)), paint("raster-brightness-max", .number, .number(1)),
      paint("raster-saturation", .number, .number(0)), paint("raster-contrast", .number, .number(0)),
      paint("raster-resampling", .enumeration(["linear", "nearest"]), .string("linear")),
      paint("raster-fade-duration", .number, .number(300), minimum: 0),
    ]
    table[.hillshade] = [
      paint("hillshade-illumination-direction", .number, .number(335)),
      paint("hillshade-illumination-anchor", anchor, .string("viewport")),
      paint("hillshade-exaggeration", .number, .number(0.5), minimum: 0),
      paint("hillshade-shadow-color", .color, black),
      paint("hillshade-highlight-color", .color, .color(.white)), paint("hillshade-accent-color", .color, black),
    ]
    table[.fillExtrusion] = [
      paint("fill-extrusion-opacity", .number, .number(1), minimum: 0),
      paint("fill-extrusion-color", .color, black, dataDriven: true),
      paint("fill-extrusion-translate", .numberArray(count: 2), zeroPair),
      paint("fill-extrusion-translate-anchor", anchor, .string("map")),
      paint("fill-extrusion-pattern", .unsupported, .null),
      paint("fill-extrusion-height", .number, .number(0), dataDriven: true, minimum: 0),
      paint("fill-extrusion-base", .number, .number(0), dataDriven: true, minimum: 0),
      paint("fill-extrusion-vertical-gradient", .boolean, .bool(true)),
    ]
    table[.symbol] = []
    table[.heatmap] = []
    return table.mapValues { specs in Dictionary(uniqueKeysWithValues: (specs + [visibility]).map { ($0.name, $0) }) }
  }()
}
