import TesseraNumbers

/// Parses CSS colour strings (CSS Color Level 3 plus `#RGBA`/`#RRGGBBAA`).
///
/// Accepted: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r, g, b)`, `rgba(r, g, b, a)` with
/// numbers 0–255 or percentages, `hsl(h, s%, l%)`, `hsla(h, s%, l%, a)`, the 148 named colours
/// and `transparent`. Case and surrounding spaces are ignored. Values out of range are clamped,
/// as browsers do. Anything else is an error that quotes the input.
extension Color {
  /// Parses a CSS colour, or throws ``ColorParseError`` naming what was wrong.
  public init(css text: String) throws {
    let input = text.trimmingCharacters(in: " \t\n\r").lowercased()
    if input.hasPrefix("#") {
      self = try Color.parseHex(String(input.dropFirst()), original: text)
    } else if let open = input.firstIndex(of: "("), input.hasSuffix(")") {
      let function = String(input[..<open]).trimmingCharacters(in: " ")
      let body = input[input.index(after: open)..<input.index(before: input.endIndex)]
      let arguments = body.split(separator: ",", omittingEmptySubsequences: false).map {
        String($0).trimmingCharacters(in: " ")
      }
      self = try Color.parseFunction(function, arguments, original: text)
    } else if let named = cssNamedColors[input] {
      self = Color(r: named.0, g: named.1, b: named.2, a: named.3)
    } else {
      throw ColorParseError(input: text, reason: "not a hex colour, rgb()/hsl() or colour name")
    }
  }

  private static func parseHex(_ digits: String, original: String) throws -> Color {
    guard digits.allSatisfy(\.isHexDigit) else {
      throw ColorParseError(input: original, reason: "'#' must be followed by hex digits")
    }
    let values = digits.compactMap { $0.hexDigitValue }.map(UInt8.init)
    switch values.count {
    case 3, 4:
      let channels = values.map { $0 * 17 }
      return Color(r: channels[0], g: channels[1], b: channels[2], a: channels.count == 4 ? channels[3] : 255)
    case 6, 8:
      let channels = stride(from: 0, to: values.count, by: 2).map { values[$0] * 16 + values[$0 + 1] }
      return Color(r: channels[0], g: channels[1], b: channels[2], a: channels.count == 4 ? channels[3] : 255)
    default:
      throw ColorParseError(input: original, reason: "hex colours have 3, 4, 6 or 8 digits")
    }
  }

  private static func parseFunction(_ name: String, _ arguments: [String], original: String) throws
    -> Color
  {
    let expected: Int
    switch name {
    case "rgb", "hsl": expected = 3
    case "rgba", "hsla": expected = 4
    default: throw ColorParseError(input: original, reason: "unknown colour function '\(name)'")
    }
    guard arguments.count == expected else {
      throw ColorParseError(
        input: original, reason: "\(name)() takes \(expected) comma-separated values")
    }
    let alpha = expected == 4 ? try unit(arguments[3], original: original) : 1
    if name.hasPrefix("rgb") {
      let channels = try arguments[0..<3].map { argument -> Double in
        if argument.hasSuffix("%") { return try percent(argument, original: original) }
        return try number(argument, original: original) / 255
      }
      return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
    }
    let hue = try number(arguments[0], original: original)
    let saturation = try percent(arguments[1], original: original)
    let lightness = try percent(arguments[2], original: original)
    let (r, g, b) = hslToRGB(hue: hue, saturation: saturation, lightness: lightness)
    return Color(red: r, green: g, blue: b, alpha: alpha)
  }

  private static func number(_ text: String, original: String) throws -> Double {
    guard let value = Double(text), value.isFinite else {
      throw ColorParseError(input: original, reason: "'\(text)' is not a number")
    }
    return value
  }

  private static func percent(_ text: String, original: String) throws -> Double {
    guard text.hasSuffix("%") else {
      throw ColorParseError(input: original, reason: "'\(text)' must be a percentage")
    }
    return try number(String(text.dropLast()), original: original) / 100
  }

  /// An alpha value: a number in 0...1 or a percentage.
  private static func unit(_ text: String, original: String) throws -> Double {
    text.hasSuffix("%") ? try percent(text, original: original) : try number(text, original: original)
  }

  /// HSL to RGB (CSS Color 3 §4.2.4); hue in degrees, saturation and lightness in 0...1.
  static func hslToRGB(hue: Double, saturation: Double, lightness: Double) -> (Double, Double, Double) {
    let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
    let s = min(max(saturation, 0), 1)
    let l = min(max(lightness, 0), 1)
    let m2 = l <= 0.5 ? l * (s + 1) : l + s - l * s
    let m1 = l * 2 - m2
    func channel(_ t: Double) -> Double {
      var t = t
      if t < 0 { t += 1 }
      if t > 1 { t -= 1 }
      if t * 6 < 1 { return m1 + (m2 - m1) * t * 6 }
      if t * 2 < 1 { return m2 }
      if t * 3 < 2 { return m1 + (m2 - m1) * (2.0 / 3 - t) * 6 }
      return m1
    }
    return (channel(h + 1.0 / 3), channel(h), channel(h - 1.0 / 3))
  }
}

/// A colour string that could not be parsed.
public struct ColorParseError: Error, Equatable, CustomStringConvertible {
  /// The text as given.
  public let input: String
  /// What was wrong with it.
  public let reason: String

  public var description: String { "invalid colour '\(input)': \(reason)" }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var slice = Substring(self)
    while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}
