import Foundation
import TesseraImage
import TesseraJSON
import TesseraNumbers
import TesseraStyle

/// Google's map styling (GMSMapStyle in the iOS SDK, `style=` in the Static Maps API): rules
/// of `featureType`, `elementType` and `stylers`, applied in order over the built-in map types.
public struct MapStyle: Sendable, Equatable {
  /// One rule: what it selects and the stylers applied to it, in order.
  public struct Rule: Sendable, Equatable {
    /// A dotted path of Google's feature taxonomy (`all`, `road.highway`, …).
    public var featureType: String
    /// A dotted path of Google's element taxonomy (`all`, `geometry.fill`, …).
    public var elementType: String
    public var stylers: [Styler]

    public init(featureType: String = "all", elementType: String = "all", stylers: [Styler]) {
      self.featureType = featureType
      self.elementType = elementType
      self.stylers = stylers
    }
  }

  /// A change to the selected features' elements.
  public enum Styler: Sendable, Equatable {
    /// Sets the colour's hue (from this colour), keeping its saturation and lightness.
    case hue(Color)
    /// −100…100: percent toward white (positive) or black (negative).
    case lightness(Double)
    /// −100…100: percent toward full (positive) or no (negative) saturation.
    case saturation(Double)
    /// 0.01…10: lightness raised to 1/gamma (above 1 lightens, below darkens; white and black stay).
    case gamma(Double)
    /// Lightness inverted.
    case invertLightness
    /// on, off, or simplified (strokes and icons left out).
    case visibility(Visibility)
    /// Sets the colour.
    case color(Color)
    /// Line width or text halo width, points.
    case weight(Double)
  }

  public enum Visibility: String, Sendable, Equatable {
    case on, off, simplified
  }

  public var rules: [Rule]

  public init(rules: [Rule]) {
    self.rules = rules
  }

  /// Every feature type of Google's taxonomy.
  public static let featureTypes: Set<String> = [
    "all", "administrative", "administrative.country", "administrative.land_parcel", "administrative.locality",
    "administrative.neighborhood", "administrative.province", "landscape", "landscape.man_made", "landscape.natural",
    "landscape.natural.landcover", "landscape.natural.terrain", "poi", "poi.attraction", "poi.business",
    "poi.government", "poi.medical", "poi.park", "poi.place_of_worship", "poi.school", "poi.sports_complex", "road",
    "road.arterial", "road.highway", "road.highway.controlled_access", "road.local", "transit", "transit.line",
    "transit.station", "transit.station.airport", "transit.station.bus", "transit.station.rail", "water",
  ]

  /// Every element type.
  public static let elementTypes: Set<String> = [
    "all", "geometry", "geometry.fill", "geometry.stroke", "labels", "labels.icon", "labels.text",
    "labels.text.fill", "labels.text.stroke",
  ]

  /// Reads styling JSON: an array of `{"featureType", "elementType", "stylers": [{NAME: VALUE}]}`.
  /// Errors name `source`, the rule's index and the key.
  public init(jsonString: String, source: String = "map style") throws(MapStyleError) {
    let root: JSONValue
    do {
      root = try JSONParser.parse(Array(jsonString.utf8))
    } catch {
      throw MapStyleError(source: source, rule: nil, key: nil, reason: "invalid JSON: \(error)")
    }
    try self.init(json: root, source: source)
  }

  /// Reads styling JSON already parsed.
  public init(json: JSONValue, source: String = "map style") throws(MapStyleError) {
    guard case .array(let elements) = json else {
      throw MapStyleError(source: source, rule: nil, key: nil, reason: "expected an array of rules")
    }
    var rules: [Rule] = []
    for (index, element) in elements.enumerated() {
      func fail(_ key: String?, _ reason: String) -> MapStyleError {
        MapStyleError(source: source, rule: index, key: key, reason: reason)
      }
      guard case .object(let object) = element else { throw fail(nil, "expected an object") }
      for key in object.keys where !["featureType", "elementType", "stylers"].contains(key) {
        throw fail(key, "unknown key (expected featureType, elementType, stylers)")
      }
      func name(_ key: String, known: Set<String>) throws(MapStyleError) -> String {
        guard let value = object[key] else { return "all" }
        guard case .string(let text) = value else { throw fail(key, "expected a string") }
        guard known.contains(text) else { throw fail(key, "unknown \(key) '\(text)'") }
        return text
      }
      let featureType = try name("featureType", known: Self.featureTypes)
      let elementType = try name("elementType", known: Self.elementTypes)
      guard case .array(let stylerValues)? = object["stylers"] else { throw fail("stylers", "expected an array") }
      var stylers: [Styler] = []
      for value in stylerValues {
        guard case .object(let styler) = value, styler.count >= 1 else {
          throw fail("stylers", "expected objects such as {\"color\": \"#ff0000\"}")
        }
        for (key, value) in styler.pairs {
          do {
            stylers.append(try Self.styler(key, value))
          } catch let reason as StylerProblem {
            throw fail(key, reason.text)
          } catch {
            throw fail(key, "\(error)")
          }
        }
      }
      rules.append(Rule(featureType: featureType, elementType: elementType, stylers: stylers))
    }
    self.rules = rules
  }

  /// Reads Static Maps `style=` values: `feature:road.local|element:geometry|color:0x00ff00|weight:1`,
  /// one rule each (colours as `0xRRGGBB`).
  public init(staticMapsRules: [String], source: String = "style") throws(MapStyleError) {
    var rules: [Rule] = []
    for (index, text) in staticMapsRules.enumerated() {
      var rule = Rule(stylers: [])
      for part in text.split(separator: "|").map(String.init) {
        let pieces = part.split(separator: ":", maxSplits: 1).map(String.init)
        guard pieces.count == 2 else {
          throw MapStyleError(source: source, rule: index, key: part, reason: "expected key:value")
        }
        let (key, value) = (pieces[0], pieces[1])
        switch key {
        case "feature":
          guard Self.featureTypes.contains(value) else {
            throw MapStyleError(source: source, rule: index, key: key, reason: "unknown feature '\(value)'")
          }
          rule.featureType = value
        case "element":
          guard Self.elementTypes.contains(value) else {
            throw MapStyleError(source: source, rule: index, key: key, reason: "unknown element '\(value)'")
          }
          rule.elementType = value
        default:
          let json: JSONValue
          switch key {
          case "color", "hue", "visibility": json = .string(value)
          case "invert_lightness": json = .bool(value == "true")
          default: json = Double(value).map { .number($0) } ?? .string(value)
          }
          do {
            rule.stylers.append(try Self.styler(key, json))
          } catch let reason as StylerProblem {
            throw MapStyleError(source: source, rule: index, key: key, reason: reason.text)
          } catch {
            throw MapStyleError(source: source, rule: index, key: key, reason: "\(error)")
          }
        }
      }
      rules.append(rule)
    }
    self.rules = rules
  }

  private struct StylerProblem: Error {
    let text: String
  }

  private static func styler(_ key: String, _ value: JSONValue) throws -> Styler {
    func number(_ range: ClosedRange<Double>) throws -> Double {
      guard case .number(let number) = value, number.isFinite, range.contains(number) else {
        throw StylerProblem(text: "expected a number in \(range.lowerBound)…\(range.upperBound), found \(value)")
      }
      return number
    }
    func color() throws -> Color {
      guard case .string(let text) = value else { throw StylerProblem(text: "expected a colour string") }
      let hex = text.hasPrefix("0x") ? "#" + text.dropFirst(2) : text
      guard let color = try? Color(css: hex) else {
        throw StylerProblem(text: "expected a colour such as #rrggbb, found '\(text)'")
      }
      return color
    }
    switch key {
    case "hue": return .hue(try color())
    case "color": return .color(try color())
    case "lightness": return .lightness(try number(-100...100))
    case "saturation": return .saturation(try number(-100...100))
    case "gamma": return .gamma(try number(0.01...10))
    case "weight": return .weight(try number(0...100))
    case "invert_lightness":
      guard case .bool(let flag) = value else { throw StylerProblem(text: "expected true or false") }
      return flag ? .invertLightness : .gamma(1)
    case "visibility":
      guard case .string(let text) = value, let visibility = Visibility(rawValue: text) else {
        throw StylerProblem(text: "expected on, off or simplified, found \(value)")
      }
      return .visibility(visibility)
    default:
      throw StylerProblem(
        text: "unknown styler (expected hue, lightness, saturation, gamma, invert_lightness, visibility, color, weight)"
      )
    }
  }
}

/// A styling rule that cannot be read: the source, the rule's index and key, and why.
public struct MapStyleError: Error, Equatable, CustomStringConvertible {
  public let source: String
  public let rule: Int?
  public let key: String?
  public let reason: String

  public var description: String {
    var place = source
    if let rule { place += ": rule \(rule)" }
    if let key { place += " \(key)" }
    return "\(place): \(reason)"
  }
}
