import Foundation
import TesseraJSON

/// Numbers that break careless conversions (Double → Int traps, overflow, NaN comparisons):
/// ±1e300, ±infinity, NaN, −0, 2^63, 2^64 and Int32's edges just beyond.
public enum HostileNumbers {
  public static let values: [Double] = [
    1e300, -1e300, .infinity, -.infinity, .nan, -0.0, 9_223_372_036_854_775_808, 18_446_744_073_709_551_616,
    2_147_483_648, -2_147_483_649, 1e-300,
    // The largest doubles: times π they overflow to infinity (a latitude of −1e308 once did).
    1e308, -1e308,
  ]

  /// The same numbers as JSON text can write them (JSON has no infinity or NaN: 1e999 stands
  /// for a number beyond range).
  public static let texts = [
    "1e300", "-1e300", "1e308", "-1e308", "1e999", "-1e999", "-0", "9223372036854775808", "1e-300",
  ]

  /// The hostile numbers of the checked-number sweep as JSON can write them: the largest
  /// doubles, the smallest subnormal, negative zero, 2^63 and a number beyond range (1e999).
  public static let sweepJSON = ["1e308", "-1e308", "5e-324", "-0", "9223372036854775808", "1e999"]

  /// The same as text fields, flags and query parameters write them, NaN and the infinities
  /// included.
  public static let sweepTexts = [
    "1e308", "-1e308", "5e-324", "-0", "9223372036854775808", "nan", "inf", "-inf", "1e999",
  ]

  /// Every text made from `text` by putting each of `values` in place of one of its numbers
  /// (runs of digits with an optional sign, fraction and exponent), with the number replaced.
  public static func textVariants(of text: String, values: [String] = sweepTexts) -> [(number: String, text: String)] {
    let pattern = try! NSRegularExpression(pattern: #"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?"#)
    let whole = NSRange(text.startIndex..., in: text)
    var variants: [(String, String)] = []
    for match in pattern.matches(in: text, range: whole) {
      guard let range = Range(match.range, in: text) else { continue }
      // Not the digits of a hex colour or of a word.
      if range.lowerBound > text.startIndex {
        let before = text[text.index(before: range.lowerBound)]
        if before.isLetter || before == "#" || before == "x" { continue }
      }
      if range.upperBound < text.endIndex, text[range.upperBound].isLetter { continue }
      for value in values {
        variants.append((String(text[range]), text.replacingCharacters(in: range, with: value)))
      }
    }
    return variants
  }

  /// Every document made from `document` by putting one hostile value in place of one of its
  /// numbers (each number in turn, each value in turn).
  public static func variants(of document: JSONValue) -> [JSONValue] {
    var result: [JSONValue] = []
    for value in values {
      var index = 0
      while let variant = replacing(number: index, in: document, with: value) {
        result.append(variant)
        index += 1
      }
    }
    return result
  }

  /// `document` with its `number`-th number (depth first) replaced by `value`; nil when it
  /// has fewer numbers.
  public static func replacing(number target: Int, in document: JSONValue, with value: Double) -> JSONValue? {
    var seen = 0
    var replaced = false
    func walk(_ node: JSONValue) -> JSONValue {
      switch node {
      case .number:
        defer { seen += 1 }
        if seen == target {
          replaced = true
          return .number(value)
        }
        return node
      case .array(let elements): return .array(elements.map(walk))
      case .object(let object):
        var copy = JSONObject()
        for (key, member) in object.pairs { copy[key] = walk(member) }
        return .object(copy)
      default: return node
      }
    }
    let result = walk(document)
    // Not `replaced ? result : nil`: JSONValue is nil-literal expressible, so that is `.null`.
    guard replaced else { return Optional<JSONValue>.none }
    return result
  }
}
