import TesseraNumbers

/// A position inside a parsed JSON document that knows its path, so a wrong or missing field
/// produces an error naming the file, the field and what was expected.
///
/// ```swift
/// let zoom = try scene["camera"]["zoom"].number()       // required
/// let scale = try scene["scale"].number(default: 1)     // optional with a default
/// ```
package struct JSONCursor: Sendable {
  /// The value here, or nil when the field is absent.
  package let value: JSONValue?
  /// Where the value is: the steps from the root, written out only when asked for (a message).
  private let location: JSONLocation?
  /// What the document is (a file path), for messages.
  package let source: String

  /// The path from the root, e.g. `camera.zoom` or `layers[3].paint`.
  package var path: String { location?.path ?? "" }

  /// A cursor at the root of a document.
  package init(root: JSONValue, source: String) {
    self.init(value: root, location: nil, source: source)
  }

  /// A cursor at the field `path` of the document `source`, holding `value`: a value given in
  /// code, checked as the field holding it is (with the same errors).
  package init(field path: String, value: JSONValue, source: String) {
    self.init(value: value, location: JSONLocation(parent: nil, step: .path(path)), source: source)
  }

  private init(value: JSONValue?, location: JSONLocation?, source: String) {
    self.value = value
    self.location = location
    self.source = source
  }

  /// The member `key` (absent when this is not an object or lacks it).
  package subscript(key: String) -> JSONCursor {
    JSONCursor(value: value?[key], location: JSONLocation(parent: location, step: .key(key)), source: source)
  }

  /// The element at `index` (absent when this is not an array or is too short).
  package subscript(index: Int) -> JSONCursor {
    let element = value?.array.flatMap { index < $0.count ? $0[index] : nil }
    return JSONCursor(value: element, location: JSONLocation(parent: location, step: .index(index)), source: source)
  }

  /// Whether the field is present (null counts as present).
  package var exists: Bool { value != nil }

  /// Whether the field is absent or null.
  package var isAbsentOrNull: Bool { value == nil || value == .null }

  /// The error for this field holding the wrong thing.
  package func mismatch(_ expected: String) -> JSONFieldError {
    JSONFieldError(source: source, path: path, expected: expected, found: value?.kindDescription ?? "nothing")
  }

  /// The error for this field holding a value that is not allowed.
  package func invalid(_ reason: String) -> JSONFieldError {
    JSONFieldError(source: source, path: path, expected: reason, found: value.map(JSONCursor.brief) ?? "nothing")
  }

  /// A required finite number.
  package func number() throws(JSONFieldError) -> Double {
    guard let number = value?.number else { throw mismatch("a number") }
    guard number.isFinite else { throw invalid("a finite number") }
    return number
  }

  /// A required number within `range`.
  package func number(in range: ClosedRange<Double>) throws(JSONFieldError) -> Double {
    let number = try number()
    guard range.contains(number) else { throw invalid("a number in \(JSONCursor.describe(range))") }
    return number
  }

  /// A number within `range`, or `fallback` when absent or null.
  package func number(default fallback: Double, in range: ClosedRange<Double>) throws(JSONFieldError) -> Double {
    isAbsentOrNull ? fallback : try number(in: range)
  }

  /// A number within `range`, or nil when absent or null.
  package func optionalNumber(in range: ClosedRange<Double>) throws(JSONFieldError) -> Double? {
    isAbsentOrNull ? nil : try number(in: range)
  }

  /// A required integer (a number with no fraction) within `range`.
  package func integer(in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
    let number = try number()
    do {
      return try Int(checked: number, field: path, in: range)
    } catch {
      throw invalid(error.expected)
    }
  }

  /// An integer within `range`, or `fallback` when absent or null.
  package func integer(default fallback: Int, in range: ClosedRange<Int>) throws(JSONFieldError) -> Int {
    isAbsentOrNull ? fallback : try integer(in: range)
  }

  /// An integer within `range`, or nil when absent or null.
  package func optionalInteger(in range: ClosedRange<Int>) throws(JSONFieldError) -> Int? {
    isAbsentOrNull ? nil : try integer(in: range)
  }

  /// `a…b`, written briefly.
  static func describe(_ range: ClosedRange<Double>) -> String {
    "\(JSONValue.format(range.lowerBound))…\(JSONValue.format(range.upperBound))"
  }

  /// A number, or `fallback` when absent or null.
  package func number(default fallback: Double) throws(JSONFieldError) -> Double {
    isAbsentOrNull ? fallback : try number()
  }

  /// A number, or nil when absent or null.
  package func optionalNumber() throws(JSONFieldError) -> Double? {
    isAbsentOrNull ? nil : try number()
  }

  /// A required integer (a number with no fraction).
  package func integer() throws(JSONFieldError) -> Int {
    let value = try number()
    do {
      return try Int(checked: value, field: path, in: -(1 << 53)...(1 << 53))
    } catch {
      throw mismatch("an integer")
    }
  }

  /// A required string.
  package func string() throws(JSONFieldError) -> String {
    guard let string = value?.string else { throw mismatch("a string") }
    return string
  }

  /// A string, or nil when absent or null.
  package func optionalString() throws(JSONFieldError) -> String? {
    isAbsentOrNull ? nil : try string()
  }

  /// A required boolean.
  package func bool() throws(JSONFieldError) -> Bool {
    guard let bool = value?.bool else { throw mismatch("true or false") }
    return bool
  }

  /// A boolean, or `fallback` when absent or null.
  package func bool(default fallback: Bool) throws(JSONFieldError) -> Bool {
    isAbsentOrNull ? fallback : try bool()
  }

  /// The elements of a required array, as cursors.
  package func elements() throws(JSONFieldError) -> [JSONCursor] {
    guard let array = value?.array else { throw mismatch("an array") }
    return array.indices.map { index in
      JSONCursor(value: array[index], location: JSONLocation(parent: location, step: .index(index)), source: source)
    }
  }

  /// The elements of a required array of finite numbers; the error names the first element
  /// that is not one. (No cursor is made for an element unless it is wrong.)
  package func numbers() throws(JSONFieldError) -> [Double] {
    guard let array = value?.array else { throw mismatch("an array") }
    var numbers: [Double] = []
    numbers.reserveCapacity(array.count)
    for element in array {
      guard let number = element.number, number.isFinite else {
        return try elements().map { cursor throws(JSONFieldError) in try cursor.number() }
      }
      numbers.append(number)
    }
    return numbers
  }

  /// The keys of a required object, in document order.
  package func keys() throws(JSONFieldError) -> [String] {
    guard let object = value?.object else { throw mismatch("an object") }
    return object.keys
  }

  /// Requires an object and returns its members as cursors, in document order.
  package func members() throws(JSONFieldError) -> [(key: String, cursor: JSONCursor)] {
    try keys().map { ($0, self[$0]) }
  }

  /// A short rendering of a value for messages (strings quoted, containers abbreviated).
  static func brief(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): return "\"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
    case .number(let number): return number.isFinite ? JSONValue.format(number) : "\(number)"
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// A JSON field that is missing or holds the wrong kind of value.
public struct JSONFieldError: Error, Equatable, CustomStringConvertible {
  /// The document (a file path).
  public let source: String
  /// The field's path, e.g. `camera.zoom`.
  public let path: String
  /// What was expected there.
  public let expected: String
  /// What was found.
  public let found: String

  public var description: String {
    "\(source): \(path.isEmpty ? "document" : path): expected \(expected), found \(found)"
  }
}
