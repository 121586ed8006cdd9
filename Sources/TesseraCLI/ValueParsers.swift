import Tessera
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// Parsers for option values, each failing with a message that names the option.
enum ValueParsers {
  static func number(_ text: String, option: String) throws(UsageError) -> Double {
    guard let value = Double(text.trimmingSpaces()), value.isFinite else {
      throw UsageError("--\(option): '\(text)' is not a finite number")
    }
    return value
  }

  static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let value = Int(text.trimmingSpaces()), range.contains(value) else {
      throw UsageError("--\(option): '\(text)' must be an integer in \(range.lowerBound)...\(range.upperBound)")
    }
    return value
  }

  /// A number written any way `Double` reads it (`3`, `3.0`, `3e0`) that must be a whole
  /// number in `range`.
  static func integer(fromNumber text: String, option: String, range: ClosedRange<Int>) throws(UsageError) -> Int {
    let value = try number(text, option: option)
    do {
      return try Int(checked: value, field: "--\(option)", in: range)
    } catch {
      throw UsageError(error.description)
    }
  }

  /// `n1,n2,…` with exactly `count` finite numbers.
  static func numbers(_ text: String, count: Int, option: String, form: String) throws(UsageError) -> [Double] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
    guard parts.count == count else { throw UsageError("--\(option): '\(text)' must have the form \(form)") }
    var values: [Double] = []
    for part in parts {
      guard let value = Double(part), value.isFinite else {
        throw UsageError("--\(option): '\(part)' in '\(text)' is not a finite number (form \(form))")
      }
      values.append(value)
    }
    return values
  }

  /// `LAT,LNG`.
  static func coordinate(_ text: String, option: String) throws(UsageError) -> Coordinate {
    let values = try numbers(text, count: 2, option: option, form: "LAT,LNG")
    return Coordinate(latitude: values[0], longitude: values[1])
  }

  /// `WxH` in points, both positive.
  static func size(_ text: String, option: String) throws(UsageError) -> (Double, Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width.isFinite,
      height.isFinite, width > 0, height > 0
    else {
      throw UsageError("--\(option): '\(text)' must have the form WxH with positive sizes, e.g. 1024x768")
    }
    return (width, height)
  }

  /// `TOP,LEFT,BOTTOM,RIGHT` in points, none negative.
  static func padding(_ text: String, option: String) throws(UsageError) -> EdgeInsets {
    let values = try numbers(text, count: 4, option: option, form: "TOP,LEFT,BOTTOM,RIGHT")
    guard values.allSatisfy({ $0 >= 0 }) else { throw UsageError("--\(option): padding must not be negative") }
    return EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
  }

  static func color(_ text: String, option: String) throws(UsageError) -> Color {
    do {
      return try Color(css: text)
    } catch {
      throw UsageError("--\(option): \(error)")
    }
  }

  static func update(_ text: String, option: String) throws(UsageError) -> CameraUpdate {
    do {
      return try CameraUpdate(text: text)
    } catch {
      throw UsageError("--\(option): \(error)")
    }
  }

  static func gpu(_ text: String) throws(UsageError) -> GPUSelection {
    do {
      return try GPUSelection(parsing: text)
    } catch {
      throw UsageError("--gpu: \(error)")
    }
  }
}

extension String {
  func trimmingSpaces() -> String {
    var slice = Substring(self)
    while slice.first == " " { slice = slice.dropFirst() }
    while slice.last == " " { slice = slice.dropLast() }
    return String(slice)
  }
}
