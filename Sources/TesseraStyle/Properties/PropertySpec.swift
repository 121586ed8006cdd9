import TesseraImage
import TesseraNumbers

/// The value type of a style property.
package enum PropertyType: Sendable, Equatable {
  case color
  case number
  case boolean
  case string
  case enumeration([String])
  /// An array of numbers, of a fixed length when given.
  case numberArray(count: Int?)
  /// Text with sections (`text-field`): a string, or what `format` gives.
  case formatted
  /// An array of strings (`text-font`, `text-variable-anchor`).
  case stringArray
  /// Properties Tessera parses but does not draw (patterns, images, text).
  case unsupported
}

/// What the style specification says about one property.
package struct PropertySpec: Sendable {
  package let name: String
  package let type: PropertyType
  package let defaultValue: StyleValue
  /// Whether it is a paint (else layout) property.
  package let isPaint: Bool
  /// Whether feature data may drive it (data expressions, property functions).
  package let isDataDriven: Bool
  /// The smallest valid value of a number property.
  package let minimum: Double?
  /// Whether values can be interpolated (numbers, colours, number arrays except dash arrays).
  package let isInterpolatable: Bool
  /// The default when it is an expression rather than a value (`heatmap-color`'s ramp over
  /// the density).
  package let defaultExpression: Expression?

  init(
    name: String, type: PropertyType, defaultValue: StyleValue, isPaint: Bool, isDataDriven: Bool = false,
    minimum: Double? = nil, isInterpolatable: Bool? = nil, defaultExpression: Expression? = nil
  ) {
    self.name = name
    self.defaultExpression = defaultExpression
    self.type = type
    self.defaultValue = defaultValue
    self.isPaint = isPaint
    self.isDataDriven = isDataDriven
    self.minimum = minimum
    switch type {
    case .color, .number, .numberArray: self.isInterpolatable = isInterpolatable ?? true
    default: self.isInterpolatable = false
    }
  }

  /// A paint property Tessera recognises but does not draw yet (a layer painted with a pattern
  /// is skipped; other such properties are ignored with a warning).
  static func unsupportedPaint(_ name: String) -> PropertySpec {
    PropertySpec(name: name, type: .unsupported, defaultValue: .null, isPaint: true)
  }
}

/// The kinds of style layers.
package enum LayerType: String, Sendable, CaseIterable {
  case background, fill, line, circle, raster, hillshade
  case fillExtrusion = "fill-extrusion"
  case symbol, heatmap
}

extension PropertySpec {
  /// The properties of each layer type the style model knows (style spec v8), by name. A layer
  /// type missing here is parsed without properties (its layers carry only id, type, source
  /// and zoom range).
  package static let byLayerType: [LayerType: [String: PropertySpec]] = {
    let table: [LayerType: [PropertySpec]] = [
      .background: BackgroundProperties.all,
      .fill: FillProperties.all,
      .line: LineProperties.all,
      .circle: CircleProperties.all,
      .raster: RasterProperties.all,
      .hillshade: HillshadeProperties.all,
      .fillExtrusion: FillExtrusionProperties.all,
      .heatmap: HeatmapProperties.all,
      .symbol: SymbolProperties.all,
    ]
    return table.mapValues { specs in
      Dictionary(uniqueKeysWithValues: (specs + [LayerProperties.visibility.spec]).map { ($0.name, $0) })
    }
  }()
}
