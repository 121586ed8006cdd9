import Foundation
import TesseraImage
import TesseraNumbers

/// A value of the MapLibre style language: what expressions produce and properties hold.
public enum StyleValue: Sendable, Equatable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case color(Color)
  case array([StyleValue])
  case object([String: StyleValue])

  /// The type name used in messages ("number", "color", …).
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .color: return "color"
    case .array: return "array"
    case .object: return "object"
    }
  }

  public var number: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  public var array: [StyleValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The colour: a colour value, or a string that parses as a CSS colour.
  public var color: Color? {
    switch self {
    case .color(let color): return color
    case .string(let text): return try? Color(css: text)
    default: return nil
    }
  }

  /// The sections of a formatted value (what `format` gives): objects with `text` or
  /// `image` and optional `font-scale`, `text-font`, `text-color`.
  public var formattedSections: [StyleValue]? {
    guard case .object(let object) = self, case .array(let sections)? = object["formatted"] else { return nil }
    return sections
  }

  /// The array as numbers, if every element is a number.
  public var numbers: [Double]? {
    guard case .array(let elements) = self else { return nil }
    var result: [Double] = []
    result.reserveCapacity(elements.count)
    for element in elements {
      guard case .number(let number) = element else { return nil }
      result.append(number)
    }
    return result
  }

  /// `to-string` (MapLibre's rules): null → "", booleans and numbers in JavaScript form,
  /// colours as "rgba(r,g,b,a)", arrays and objects as JSON.
  public var formatted: String {
    switch self {
    case .null: return ""
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number): return StyleValue.javaScriptNumber(number)
    case .string(let text): return text
    case .color(let color):
      let (r, g, b, _) = color.rgba8
      return "rgba(\(r),\(g),\(b),\(StyleValue.javaScriptNumber(color.alpha)))"
    case .array, .object: return json
    }
  }

  /// The value as JSON text.
  var json: String {
    switch self {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number): return StyleValue.javaScriptNumber(number)
    case .string(let text): return "\"\(text)\""
    case .color: return "\"\(formatted)\""
    case .array(let elements): return "[" + elements.map(\.json).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]!.json)" }.joined(separator: ",") + "}"
    }
  }

  /// A number as JavaScript prints it (integers without a fraction).
  static func javaScriptNumber(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value > 0 ? "Infinity" : "-Infinity" }
    guard value == value.rounded(), abs(value) < 1e21 else { return "\(value)" }
    // Whole numbers print without a fraction up to 1e21, beyond Int64's range.
    if abs(value) < 9e18 { return String(Int64(clamping: value)) }
    return String(format: "%.0f", value)
  }
}
