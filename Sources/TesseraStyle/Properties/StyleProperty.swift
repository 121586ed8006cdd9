import TesseraImage
import TesseraNumbers

/// A property of a layer type with the Swift type its values evaluate to, declared once (for
/// example ``LineProperties/width``). Layers are read through these, never by name: a misspelt
/// property does not compile, and a property a layer's type lacks reads as its default.
public struct StyleProperty<Value: StylePropertyValue>: Sendable {
  public let spec: PropertySpec
  /// The property's default as a Swift value: what it reads as when unset or unusable.
  public let defaultValue: Value

  /// A property whose default is "not set", read as a plain value: `fallback` where the
  /// style leaves it unset (for example `fill-outline-color` where it is known to be set).
  public func unwrapped<Wrapped>(default fallback: Wrapped) -> StyleProperty<Wrapped> where Value == Wrapped? {
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
public protocol StylePropertyValue: Sendable {
  /// The style specification's type of such properties.
  static var propertyType: PropertyType { get }
  /// The value as the style language holds it.
  var styleValue: StyleValue { get }
  /// The Swift value of a style value already conformed to the property's type; nil otherwise.
  init?(styleValue: StyleValue)
}

extension Double: StylePropertyValue {
  public static var propertyType: PropertyType { .number }
  public var styleValue: StyleValue { .number(self) }
  public init?(styleValue: StyleValue) {
    guard let number = styleValue.number else { return nil }
    self = number
  }
}

extension String: StylePropertyValue {
  public static var propertyType: PropertyType { .string }
  public var styleValue: StyleValue { .string(self) }
  public init?(styleValue: StyleValue) {
    guard let text = styleValue.string else { return nil }
    self = text
  }
}

extension Bool: StylePropertyValue {
  public static var propertyType: PropertyType { .boolean }
  public var styleValue: StyleValue { .bool(self) }
  public init?(styleValue: StyleValue) {
    guard let flag = styleValue.bool else { return nil }
    self = flag
  }
}

extension Color: StylePropertyValue {
  public static var propertyType: PropertyType { .color }
  public var styleValue: StyleValue { .color(self) }
  public init?(styleValue: StyleValue) {
    guard let color = styleValue.color else { return nil }
    self = color
  }
}

extension Array: StylePropertyValue where Element == Double {
  public static var propertyType: PropertyType { .numberArray(count: nil) }
  public var styleValue: StyleValue { .array(map { .number($0) }) }
  public init?(styleValue: StyleValue) {
    guard let numbers = styleValue.numbers else { return nil }
    self = numbers
  }
}

/// Properties whose default is "not set" (`fill-outline-color`, `line-dasharray`, sort keys)
/// evaluate to optionals: nil when the style leaves them unset.
extension Optional: StylePropertyValue where Wrapped: StylePropertyValue {
  public static var propertyType: PropertyType { Wrapped.propertyType }
  public var styleValue: StyleValue { self?.styleValue ?? .null }
  public init?(styleValue: StyleValue) {
    if styleValue == .null {
      self = .none
    } else {
      guard let value = Wrapped(styleValue: styleValue) else { return nil }
      self = .some(value)
    }
  }
}

/// A property whose values are one of a few words.
public protocol StyleEnumeration: StylePropertyValue, RawRepresentable<String>, CaseIterable {}

extension StyleEnumeration {
  public static var propertyType: PropertyType { .enumeration(allCases.map(\.rawValue)) }
  public var styleValue: StyleValue { .string(rawValue) }
  public init?(styleValue: StyleValue) {
    guard let text = styleValue.string else { return nil }
    self.init(rawValue: text)
  }
}

/// Whether something follows the map (turns and tilts with it) or the viewport (stays with the
/// screen): translate anchors, pitch alignment and scale, the hillshade illumination anchor.
public enum ReferenceFrame: String, StyleEnumeration {
  case map, viewport
}

/// `visibility`.
public enum Visibility: String, StyleEnumeration {
  case visible, none
}

/// `line-cap`.
public enum LineCap: String, StyleEnumeration {
  case butt, round, square
}

/// `line-join`.
public enum LineJoin: String, StyleEnumeration {
  case bevel, round, miter
}

/// `raster-resampling`.
public enum RasterResampling: String, StyleEnumeration {
  case linear, nearest
}

/// The properties every layer type has.
public enum LayerProperties {
  public static let visibility = StyleProperty<Visibility>.layout("visibility", .visible)
}
