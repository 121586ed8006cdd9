import TesseraImage
import TesseraNumbers

/// The properties of `symbol` layers (text and icons).
package enum SymbolProperties {
  // Placement.
  package static let placement = StyleProperty<SymbolPlacement>.layout("symbol-placement", .point)
  /// Points between labels along lines.
  package static let spacing = StyleProperty<Double>.layout("symbol-spacing", 250)
  package static let avoidEdges = StyleProperty<Bool>.layout("symbol-avoid-edges", false)
  package static let sortKey = StyleProperty<Double?>.layout("symbol-sort-key", nil, dataDriven: true)
  package static let zOrder = StyleProperty<SymbolZOrder>.layout("symbol-z-order", .auto)

  // Icons.
  package static let iconAllowOverlap = StyleProperty<Bool>.layout("icon-allow-overlap", false)
  package static let iconIgnorePlacement = StyleProperty<Bool>.layout("icon-ignore-placement", false)
  package static let iconOptional = StyleProperty<Bool>.layout("icon-optional", false)
  package static let iconRotationAlignment = StyleProperty<SymbolAlignment>.layout("icon-rotation-alignment", .auto)
  /// Multiplies the image's size.
  package static let iconSize = StyleProperty<Double>.layout("icon-size", 1, dataDriven: true)
  package static let iconTextFit = StyleProperty<IconTextFit>.layout("icon-text-fit", .none)
  /// Points: top, right, bottom, left.
  package static let iconTextFitPadding = StyleProperty<[Double]>.layout("icon-text-fit-padding", [0, 0, 0, 0])
  package static let iconImage = StyleProperty<String?>.layout("icon-image", nil, dataDriven: true)
  /// Degrees clockwise.
  package static let iconRotate = StyleProperty<Double>.layout("icon-rotate", 0, dataDriven: true)
  /// Points around the icon's collision box (one to four values, CSS order).
  package static let iconPadding = StyleProperty<[Double]>.layout("icon-padding", [2], dataDriven: true)
  package static let iconKeepUpright = StyleProperty<Bool>.layout("icon-keep-upright", false)
  /// Points (scaled by icon-size).
  package static let iconOffset = StyleProperty<[Double]>.layout("icon-offset", [0, 0], dataDriven: true)
  package static let iconAnchor = StyleProperty<SymbolAnchor>.layout("icon-anchor", .center, dataDriven: true)
  package static let iconPitchAlignment = StyleProperty<SymbolAlignment>.layout("icon-pitch-alignment", .auto)

  // Text.
  package static let textPitchAlignment = StyleProperty<SymbolAlignment>.layout("text-pitch-alignment", .auto)
  package static let textRotationAlignment = StyleProperty<SymbolAlignment>.layout("text-rotation-alignment", .auto)
  package static let textField = StyleProperty<FormattedText>.layout("text-field", FormattedText(), dataDriven: true)
  package static let textFont = StyleProperty<StringList>.layout(
    "text-font", StringList(["Open Sans Regular", "Arial Unicode MS Regular"]), dataDriven: true)
  /// Points.
  package static let textSize = StyleProperty<Double>.layout("text-size", 16, dataDriven: true)
  /// Ems.
  package static let textMaxWidth = StyleProperty<Double>.layout("text-max-width", 10, dataDriven: true)
  /// Ems.
  package static let textLineHeight = StyleProperty<Double>.layout("text-line-height", 1.2)
  /// Ems.
  package static let textLetterSpacing = StyleProperty<Double>.layout("text-letter-spacing", 0, dataDriven: true)
  package static let textJustify = StyleProperty<SymbolJustify>.layout("text-justify", .center, dataDriven: true)
  /// Ems.
  package static let textRadialOffset = StyleProperty<Double>.layout("text-radial-offset", 0, dataDriven: true)
  package static let textVariableAnchor = StyleProperty<StringList?>.layout("text-variable-anchor", nil)
  package static let textAnchor = StyleProperty<SymbolAnchor>.layout("text-anchor", .center, dataDriven: true)
  /// Degrees.
  package static let textMaxAngle = StyleProperty<Double>.layout("text-max-angle", 45)
  package static let textWritingMode = StyleProperty<StringList?>.layout("text-writing-mode", nil)
  /// Degrees clockwise.
  package static let textRotate = StyleProperty<Double>.layout("text-rotate", 0, dataDriven: true)
  /// Points.
  package static let textPadding = StyleProperty<Double>.layout("text-padding", 2)
  package static let textKeepUpright = StyleProperty<Bool>.layout("text-keep-upright", true)
  package static let textTransform = StyleProperty<TextTransform>.layout("text-transform", .none, dataDriven: true)
  /// Ems.
  package static let textOffset = StyleProperty<[Double]>.layout("text-offset", [0, 0], dataDriven: true)
  package static let textAllowOverlap = StyleProperty<Bool>.layout("text-allow-overlap", false)
  package static let textIgnorePlacement = StyleProperty<Bool>.layout("text-ignore-placement", false)
  package static let textOptional = StyleProperty<Bool>.layout("text-optional", false)

  // Paint.
  package static let iconOpacity = StyleProperty<Double>.paint("icon-opacity", 1, dataDriven: true, minimum: 0)
  package static let iconColor = StyleProperty<Color>.paint("icon-color", .black, dataDriven: true)
  package static let iconHaloColor = StyleProperty<Color>.paint(
    "icon-halo-color", Color(red: 0, green: 0, blue: 0, alpha: 0), dataDriven: true)
  /// Points.
  package static let iconHaloWidth = StyleProperty<Double>.paint("icon-halo-width", 0, dataDriven: true, minimum: 0)
  /// Points.
  package static let iconHaloBlur = StyleProperty<Double>.paint("icon-halo-blur", 0, dataDriven: true, minimum: 0)
  package static let iconTranslate = StyleProperty<[Double]>.paint(
    "icon-translate", [0, 0], type: .numberArray(count: 2))
  package static let iconTranslateAnchor = StyleProperty<ReferenceFrame>.paint("icon-translate-anchor", .map)
  package static let textOpacity = StyleProperty<Double>.paint("text-opacity", 1, dataDriven: true, minimum: 0)
  package static let textColor = StyleProperty<Color>.paint("text-color", .black, dataDriven: true)
  package static let textHaloColor = StyleProperty<Color>.paint(
    "text-halo-color", Color(red: 0, green: 0, blue: 0, alpha: 0), dataDriven: true)
  /// Points.
  package static let textHaloWidth = StyleProperty<Double>.paint("text-halo-width", 0, dataDriven: true, minimum: 0)
  /// Points.
  package static let textHaloBlur = StyleProperty<Double>.paint("text-halo-blur", 0, dataDriven: true, minimum: 0)
  package static let textTranslate = StyleProperty<[Double]>.paint(
    "text-translate", [0, 0], type: .numberArray(count: 2))
  package static let textTranslateAnchor = StyleProperty<ReferenceFrame>.paint("text-translate-anchor", .map)

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
package enum SymbolPlacement: String, StyleEnumeration {
  case point, line
  case lineCenter = "line-center"
}

/// `symbol-z-order`.
package enum SymbolZOrder: String, StyleEnumeration {
  case auto
  case viewportY = "viewport-y"
  case source
}

/// The pitch and rotation alignments of text and icons.
package enum SymbolAlignment: String, StyleEnumeration {
  case map, viewport, auto
  case viewportGlyph = "viewport-glyph"
}

/// `icon-text-fit`.
package enum IconTextFit: String, StyleEnumeration {
  case none, width, height, both
}

/// `text-justify`.
package enum SymbolJustify: String, StyleEnumeration {
  case auto, left, center, right
}

/// `text-transform`.
package enum TextTransform: String, StyleEnumeration {
  case none, uppercase, lowercase
}

/// `text-anchor`, `icon-anchor` and the anchors of `text-variable-anchor`.
package enum SymbolAnchor: String, StyleEnumeration {
  case center, left, right, top, bottom
  case topLeft = "top-left"
  case topRight = "top-right"
  case bottomLeft = "bottom-left"
  case bottomRight = "bottom-right"
}

/// A `text-field` value: plain text, or the sections `format` made.
package struct FormattedText: StylePropertyValue, Equatable {
  /// Each section: `text` or `image`, with optional `font-scale`, `text-font`, `text-color`.
  package let sections: [StyleValue]

  package init(sections: [StyleValue] = []) { self.sections = sections }

  package static var propertyType: PropertyType { .formatted }
  package var styleValue: StyleValue { .object(["formatted": .array(sections)]) }
  package init?(styleValue: StyleValue) {
    if let sections = styleValue.formattedSections {
      self.sections = sections
    } else if case .string(let text) = styleValue {
      sections = text.isEmpty ? [] : [.object(["text": .string(text)])]
    } else {
      return nil
    }
  }

  /// The plain text of every section.
  package var plainText: String { sections.compactMap { $0.objectValue?["text"]?.string }.joined() }
}

/// An array of strings (font stacks, anchor lists).
package struct StringList: StylePropertyValue, Equatable {
  package let values: [String]

  package init(_ values: [String]) { self.values = values }

  package static var propertyType: PropertyType { .stringArray }
  package var styleValue: StyleValue { .array(values.map { .string($0) }) }
  package init?(styleValue: StyleValue) {
    guard case .array(let elements) = styleValue else { return nil }
    let strings = elements.compactMap(\.string)
    guard strings.count == elements.count else { return nil }
    values = strings
  }
}

extension StyleValue {
  /// The members of an object value.
  package var objectValue: [String: StyleValue]? {
    if case .object(let members) = self { return members }
    return nil
  }
}
