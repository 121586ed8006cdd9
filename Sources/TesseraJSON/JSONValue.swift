import TesseraNumbers

/// A parsed JSON value. Objects keep their keys in document order, so output written back is
/// deterministic and follows the input.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// A short name of the value's kind for error messages ("a number", "an object", …).
  public var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The number, if this is one.
  public var number: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The string, if this is one.
  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The boolean, if this is one.
  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, if this is an array.
  public var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, if this is an object.
  public var object: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The member `key` of an object (nil for other kinds or a missing key).
  public subscript(key: String) -> JSONValue? {
    object?[key]
  }
}

/// A JSON object: members by key, with the order of first appearance kept. A key that appears
/// twice keeps its last value (as JavaScript does) at its first position.
public struct JSONObject: Sendable, Hashable {
  /// Keys in document order.
  public private(set) var keys: [String] = []
  private var members: [String: JSONValue] = [:]

  public init() {}

  /// Makes an object from pairs in order.
  public init(_ pairs: [(String, JSONValue)]) {
    for (key, value) in pairs { self[key] = value }
  }

  /// The value of `key`, or nil; setting nil removes the key.
  public subscript(key: String) -> JSONValue? {
    get { members[key] }
    set {
      if let newValue {
        if members.updateValue(newValue, forKey: key) == nil { keys.append(key) }
      } else if members.removeValue(forKey: key) != nil {
        keys.removeAll { $0 == key }
      }
    }
  }

  /// The number of members.
  public var count: Int { keys.count }

  /// Members in document order.
  public var pairs: [(key: String, value: JSONValue)] { keys.map { ($0, members[$0]!) } }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
  ExpressibleByNilLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
  public init(nilLiteral: ()) { self = .null }
}
