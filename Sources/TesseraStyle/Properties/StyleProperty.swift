import TesseraImage
import TesseraNumbers

/// A property of a layer type with the Swift type its values evaluate to, declared once (for
/// example ``LineProperties/width``). Layers are read through these, never by name: a misspelt
/// property does not compile, and a property a layer's type lacks reads as its default.
package struct StyleProperty<Value: StylePropertyValue>: Sendable {
  package let spec: PropertySpec
  /// The property's default as a Swift value: what it reads as when unset or unusable.
  package let defaultValue: Value

  /// A property whose default is "not set", read as a plain value: `fallback` where the
  /// style leaves it unset (for example `fill-outline-color` where it is known to be set).
  package func unwrapped<Wrapped>(default fallback: Wrapped) -> StyleProperty<Wrapped> where Value == Wrapped? {
    StyleProperty<Wrapped>(spec: spec, defaultValue: fallback)
  }

  /// A paint property of type `Value` (or `type`, for fixed-length arrays).
  static func paint(
    _ name: String, _ defaultValue: Value, type: PropertyType = Value.propertyType, dataDriven: Bool = false,
    minimum: Double? = nil, interpolatable: Bool? = nil
  ) -> StyleProperty {
    StyleProperty(
      spec: PropertySpec(
        name: name, type: type, defaultValue: defaultValue.styleValue, isPaint: true, isDataDriven: dataDriven,
        minimum: minimum, isInterpolatable: interpolatable),
      defaultValue: defaultValue)
  }

  /// A layout property of type `Value`.
  static func layout(_ name: String, _ defaultValue: Value, dataDriven: Bool = false) -> StyleProperty {
    StyleProperty(
      spec: PropertySpec(
        name: name, type: Value.propertyType, defaultValue: defaultValue.styleValue, isPaint: false,
        isDataDriven: dataDriven),
      defaultValue: defaultValue)
  }
}

/// A Swift type style properties evaluate to.
package protocol StylePropertyValue: Sendable {
  /// The style specification's type of such properties.
  static var propertyType: PropertyType { get }
  /// The value as the style language holds it.
  var styleValue: StyleValue { get }
  /// The Swift value of a style value already conformed to the property's type; nil otherwise.
  init?(styleValue: StyleValue)
}

extension Double: StylePropertyValue {
  package static var propertyType: PropertyType { .number }
  package var styleValue: StyleValue { .number(self) }
  package init?(styleValue: StyleValue) {
    guard let number = styleValue.number else { return nil }
    self = number
  }
}

extension String: StylePropertyValue {
  package static var propertyType: PropertyType { .string }
  package var styleValue: StyleValue { .string(self) }
  package init?(styleValue: StyleValue) {
    guard let text = styleValue.string else { return nil }
    self = text
  }
}

extension Bool: StylePropertyValue {
  package static var propertyType: PropertyType { .boolean }
  package var styleValue: StyleValue { .bool(self) }
  package init?(styleValue: StyleValue) {
    guard let flag = styleValue.bool else { return nil }
    self = flag
  }
}

extension Color: StylePropertyValue {
  package static var propertyType: PropertyType { .color }
  package var styleValue: StyleValue { .color(self) }
  package init?(styleValue: StyleValue) {
    guard let color = styleValue.color else { return nil }
    self = color
  }
}

extension Array: StylePropertyValue where Element == Double {
  package static var propertyType: PropertyType { .numberArray(count: nil) }
  package var styleValue: StyleValue { .array(map { .number($0) }) }
  package init?(styleValue: StyleValue) {
    guard let numbers = styleValue.numbers else { return nil }
    self = numbers
  }
}

/// Properties whose default is "not set" (`fill-outline-color`, `line-dasharray`, sort keys)
/// evaluate to optionals: nil when the style leaves them unset.
extension Optional: StylePropertyValue where Wrapped: StylePropertyValue {
  package static var propertyType: PropertyType { Wrapped.propertyType }
  package var styleValue: StyleValue { self?.styleValue ?? .null }
  package init?(styleValue: StyleValue) {
    if styleValue == .null {
      self = .none
    } else {
      guard let value = Wrapped(styleValue: styleValue) else { return nil }
      self = .some(value)
    }
  }
}

/// A property whose values are one of a few words.
package protocol StyleEnumeration: StylePropertyValue, RawRepresentable<String>, CaseIterable {}

extension StyleEnumeration {
  package static var propertyType: PropertyType { .enumeration(allCases.map(\.rawValue)) }
  package var styleValue: StyleValue { .string(rawValue) }
  package init?(styleValue: StyleValue) {
    guard let text = styleValue.string else { return nil }
    self.init(rawValue: text)
  }
}

/// Whether something follows the map (turns and tilts with it) or the viewport (stays with the
/// screen): translate anchors, pitch alignment and scale, the hillshade illumination anchor.
package enum ReferenceFrame: String, StyleEnumeration {
  case map, viewport
}

/// `visibility`.
package enum Visibility: String, StyleEnumeration {
  case visible, none
}

/// `line-cap`.
package enum LineCap: String, StyleEnumeration {
  case butt, round, square
}

/// `line-join`.
package enum LineJoin: String, StyleEnumeration {
  case bevel, round, miter
}

/// `raster-resampling`.
package enum RasterResampling: String, StyleEnumeration {
  case linear, nearest
}

/// The properties every layer type has.
package enum LayerProperties {
  package static let visibility = StyleProperty<Visibility>.layout("visibility", .visible)
}
