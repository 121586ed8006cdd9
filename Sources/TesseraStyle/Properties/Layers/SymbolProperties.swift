import TesseraImage
import TesseraNumbers

/// The properties of `symbol` layers (text and icons).
public enum SymbolProperties {
  // Placement.
  public static let placement = StyleProperty<SymbolPlacement>.layout("symbol-placement", .point)
  /// Points between labels along lines.
  public static let spacing = StyleProperty<Double>.layout("symbol-spacing", 250)
  public static let avoidEdges = StyleProperty<Bool>.layout("symbol-avoid-edges", false)
  public static let sortKey = StyleProperty<Double?>.layout("symbol-sort-key", nil, dataDriven: true)
  public static let zOrder = StyleProperty<SymbolZOrder>.layout("symbol-z-order", .auto)

  // Icons.
  public static let iconAllowOverlap = StyleProperty<Bool>.layout("icon-allow-overlap", false)
  public static let iconIgnorePlacement = StyleProperty<Bool>.layout("icon-ignore-placement", false)
  public static let iconOptional = StyleProperty<Bool>.layout("icon-optional", false)
  public static let iconRotationAlignment = StyleProperty<SymbolAlignment>.layout("icon-rotation-alignment", .auto)
  /// Multiplies the image's size.
  public static let iconSize = StyleProperty<Double>.layout("icon-size", 1, dataDriven: true)
  public static let iconTextFit = StyleProperty<IconTextFit>.layout("icon-text-fit", .none)
  /// Points: top, right, bottom, left.
  public static let iconTextFitPadding = StyleProperty<[Double]>.layout("icon-text-fit-padding", [0, 0, 0, 0])
  public static let iconImage = StyleProperty<String?>.layout("icon-image", nil, dataDriven: true)
  /// Degrees clockwise.
  public static let iconRotate = StyleProperty<Double>.layout("icon-rotate", 0, dataDriven: true)
  /// Points around the icon's collision box (one to four values, CSS order).
  public static let iconPadding = StyleProperty<[Double]>.layout("icon-padding", [2], dataDriven: true)
  public static let iconKeepUpright = StyleProperty<Bool>.layout("icon-keep-upright", false)
  /// Points (scaled by icon-size).
  public static let iconOffset = StyleProperty<[Double]>.layout("icon-offset", [0, 0], dataDriven: true)
  public static let iconAnchor = StyleProperty<SymbolAnchor>.layout("icon-anchor", .center, dataDriven: true)
  public static let iconPitchAlignment = StyleProperty<SymbolAlignment>.layout("icon-pitch-alignment", .auto)

  // Text.
  public static let textPitchAlignment = StyleProperty<SymbolAlignment>.layout("text-pitch-alignment", .auto)
  public static let textRotationAlignment = StyleProperty<SymbolAlignment>.layout("text-rotation-alignment", .auto)
  public static let textField = StyleProperty<FormattedText>.layout("text-field", FormattedText(), dataDriven: true)
  public static let textFont = StyleProperty<StringList>.layout(
    "text-font", StringList(["Open Sans Regular", "Arial Unicode MS Regular"]), dataDriven: true)
  /// Points.
  public static let textSize = StyleProperty<Double>.layout("text-size", 16, dataDriven: true)
  /// Ems.
  public static let textMaxWidth = StyleProperty<Double>.layout("text-max-width", 10, dataDriven: true)
  /// Ems.
  public static let textLineHeight = StyleProperty<Double>.layout("text-line-height", 1.2)
  /// Ems.
  public static let textLetterSpacing = StyleProperty<Double>.layout("text-letter-spacing", 0, dataDriven: true)
  public static let textJustify = StyleProperty<SymbolJustify>.layout("text-justify", .center, dataDriven: true)
  /// Ems.
  public static let textRadialOffset = StyleProperty<Double>.layout("text-radial-offset", 0, dataDriven: true)
  public static let textVariableAnchor = StyleProperty<StringList?>.layout("text-variable-anchor", nil)
  public static let textAnchor = StyleProperty<SymbolAnchor>.layout("text-anchor", .center, dataDriven: true)
  /// Degrees.
  public static let textMaxAngle = StyleProperty<Double>.layout("text-max-angle", 45)
  public static let textWritingMode = StyleProperty<StringList?>.layout("text-writing-mode", nil)
  /// Degrees clockwise.
  public static let textRotate = StyleProperty<Double>.layout("text-rotate", 0, dataDriven: true)
  /// Points.
  public static let textPadding = StyleProperty<Double>.layout("text-padding", 2)
  public static let textKeepUpright = StyleProperty<Bool>.layout("text-keep-upright", true)
  public static let textTransform = StyleProperty<TextTransform>.layout("text-transform", .none, dataDriven: true)
  /// Ems.
  public static let textOffset = StyleProperty<[Double]>.layout("text-offset", [0, 0], dataDriven: true)
  public static let textAllowOverlap = StyleProperty<Bool>.layout("text-allow-overlap", false)
  public static let textIgnorePlacement = StyleProperty<Bool>.layout("text-ignore-placement", false)
  public static let textOptional = StyleProperty<Bool>.layout("text-optional", false)

  // Paint.
  public static let iconOpacity = StyleProperty<Double>.paint("icon-opacity", 1, dataDriven: true, minimum: 0)
  public static let iconColor = StyleProperty<Color>.paint("icon-color", .black, dataDriven: true)
  public static let iconHaloColor = StyleProperty<Color>.paint(
    "icon-halo-color", Color(red: 0, green: 0, blue: 0, alpha: 0), dataDriven: true)
  /// Points.
  public static let iconHaloWidth = StyleProperty<Double>.paint("icon-halo-width", 0, dataDriven: true, minimum: 0)
  /// Points.
  public static let iconHaloBlur = StyleProperty<Double>.paint("icon-halo-blur", 0, dataDriven: true, minimum: 0)
  public static let iconTranslate = StyleProperty<[Double]>.paint(
    "icon-translate", [0, 0], type: .numberArray(count: 2))
  public static let iconTranslateAnchor = StyleProperty<ReferenceFrame>.paint("icon-translate-anchor", .map)
  public static let textOpacity = StyleProperty<Double>.paint("text-opacity", 1, dataDriven: true, minimum: 0)
  public static let textColor = StyleProperty<Color>.paint("text-color", .black, dataDriven: true)
  public static let textHaloColor = StyleProperty<Color>.paint(
    "text-halo-color", Color(red: 0, green: 0, blue: 0, alpha: 0), dataDriven: true)
  /// Points.
  public static let textHaloWidth = StyleProperty<Double>.paint("text-halo-width", 0, dataDriven: true, minimum: 0)
  /// Points.
  public static let textHaloBlur = StyleProperty<Double>.paint("text-halo-blur", 0, dataDriven: true, minimum: 0)
  public static let textTranslate = StyleProperty<[Double]>.paint(
    "text-translate", [0, 0], type: .numberArray(count: 2))
  public static let textTranslateAnchor = StyleProperty<ReferenceFrame>.paint("text-translate-anchor", .map)

  static let all: [PropertySpec] = [
    placement.spec, spacing.spec, avoidEdges.spec, sortKey.spec, zOrder.spec, iconAllowOverlap.spec,
    iconIgnorePlacement.spec, iconOptional.spec, iconRotationAlignment.spec, iconSize.spec, iconTextFit.spec,
    iconTextFitPadding.spec, iconImage.spec, iconRotate.spec, iconPadding.spec, iconKeepUpright.spec,
    iconOffset.spec, iconAnchor.spec, iconPitchAlignment.spec, textPitchAlignment.spec, textRotationAlignment.spec,
    textField.spec, textFont.spec, textSize.spec, textMaxWidth.spec, textLineHeight.spec, textLetterSpacing.spec,
    textJustify.spec, textRadialOffset.spec, textVariableAnchor.spec, textAnchor.spec, textMaxAngle.spec,
    textWritingMode.spec, textRotate.spec, textPadding.spec, textKeepUpright.spec, textTransform.spec,
    textOffset.spec, textAllowOverlap.spec, textIgnorePlacement.spec, textOptional.spec, iconOpacity.spec,
    iconColor.spec, iconHaloColor.spec, iconHaloWidth.spec, iconHaloBlur.spec, iconTranslate.spec,
    iconTranslateAnchor.spec, textOpacity.spec, textColor.spec, textHaloColor.spec, textHaloWidth.spec,
    textHaloBlur.spec, textTranslate.spec, textTranslateAnchor.spec,
    PropertySpec(
      name: "text-variable-anchor-offset", type: .unsupported, defaultValue: .null, isPaint: false,
      isDataDriven: true),
  ]
}

/// `symbol-placement`.
public enum SymbolPlacement: String, StyleEnumeration {
  case point, line
  case lineCenter = "line-center"
}

/// `symbol-z-order`.
public enum SymbolZOrder: String, StyleEnumeration {
  case auto
  case viewportY = "viewport-y"
  case source
}

/// The pitch and rotation alignments of text and icons.
public enum SymbolAlignment: String, StyleEnumeration {
  case map, viewport, auto
  case viewportGlyph = "viewport-glyph"
}

/// `icon-text-fit`.
public enum IconTextFit: String, StyleEnumeration {
  case none, width, height, both
}

/// `text-justify`.
public enum SymbolJustify: String, StyleEnumeration {
  case auto, left, center, right
}

/// `text-transform`.
public enum TextTransform: String, StyleEnumeration {
  case none, uppercase, lowercase
}

/// `text-anchor`, `icon-anchor` and the anchors of `text-variable-anchor`.
public enum SymbolAnchor: String, StyleEnumeration {
  case center, left, right, top, bottom
  case topLeft = "top-left"
  case topRight = "top-right"
  case bottomLeft = "bottom-left"
  case bottomRight = "bottom-right"
}

/// A `text-field` value: plain text, or the sections `format` made.
public struct FormattedText: StylePropertyValue, Equatable {
  /// Each section: `text` or `image`, with optional `font-scale`, `text-font`, `text-color`.
  public let sections: [StyleValue]

  public init(sections: [StyleValue] = []) { self.sections = sections }

  public static var propertyType: PropertyType { .formatted }
  public var styleValue: StyleValue { .object(["formatted": .array(sections)]) }
  public init?(styleValue: StyleValue) {
    if let sections = styleValue.formattedSections {
      self.sections = sections
    } else if case .string(let text) = styleValue {
      sections = text.isEmpty ? [] : [.object(["text": .string(text)])]
    } else {
      return nil
    }
  }

  /// The plain text of every section.
  public var plainText: String { sections.compactMap { $0.objectValue?["text"]?.string }.joined() }
}

/// An array of strings (font stacks, anchor lists).
public struct StringList: StylePropertyValue, Equatable {
  public let values: [String]

  public init(_ values: [String]) { self.values = values }

  public static var propertyType: PropertyType { .stringArray }
  public var styleValue: StyleValue { .array(values.map { .string($0) }) }
  public init?(styleValue: StyleValue) {
    guard case .array(let elements) = styleValue else { return nil }
    let strings = elements.compactMap(\.string)
    guard strings.count == elements.count else { return nil }
    values = strings
  }
}

extension StyleValue {
  /// The members of an object value.
  public var objectValue: [String: StyleValue]? {
    if case .object(let members) = self { return members }
    return nil
  }
}
