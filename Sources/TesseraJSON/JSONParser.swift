import TesseraNumbers

/// A strict JSON parser (RFC 8259) over UTF-8 bytes, with errors that give line and column.
///
/// Nesting is limited (``maxDepth``) so hostile input cannot exhaust the stack; numbers are
/// parsed as doubles; invalid UTF-8 in strings is rejected.
package struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  package static let maxDepth = 256

  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0

  /// Parses a complete JSON document.
  package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    var parser = JSONParser(bytes: bytes)
    parser.skipWhitespace()
    if parser.index == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      parser.index = 3
      parser.skipWhitespace()
    }
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  /// Parses a complete JSON document from a string.
  package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private func error(_ message: String) -> JSONSyntaxError {
    var line = 1
    var column = 1
    for byte in bytes[..<min(index, bytes.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return JSONSyntaxError(message: message, line: line, column: column, offset: index)
  }

  private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default:
      throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))', expected a value")
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
    let utf8 = Array(word.utf8)
    guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
      throw error("invalid literal, expected '\(word)'")
    }
    index += utf8.count
    return value
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    index += 1
    var object = JSONObject()
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a string key in object")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after object key") }
      index += 1
      skipWhitespace()
      object[key] = try parseValue()
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input inside an object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in object") }
      index += 1
      depth -= 1
      return .object(object)
    }
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of input inside an array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in array") }
      index += 1
      depth -= 1
      return .array(elements)
    }
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = index
    var decimal = DecimalDigits()
    let negative = bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      while index < bytes.count, isDigit(bytes[index]) {
        decimal.append(bytes[index])
        index += 1
      }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digits expected after '.'") }
      while index < bytes.count, isDigit(bytes[index]) {
        decimal.append(bytes[index])
        decimal.exponent -= 1
        index += 1
      }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      var exponentSign = 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        if bytes[index] == UInt8(ascii: "-") { exponentSign = -1 }
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: exponent digits expected") }
      var written = 0
      var digits = 0
      while index < bytes.count, isDigit(bytes[index]) {
        written = written * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        digits += 1
        index += 1
        // An exponent of more than four digits is beyond the exact path; the text decides.
        if digits > 4 {
          decimal.isExact = false
          while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
      }
      decimal.exponent += exponentSign * written
    }
    if let value = decimal.exactValue { return negative ? -value : value }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text) else { throw error("invalid number '\(text)'") }
    // 1e999 would be infinite: no field of any document Tessera reads can use it.
    guard value.isFinite else { throw error("number '\(text)' is out of range (beyond ±1.8e308)") }
    return value
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = bytes[start..<index]
        index += 1
        guard let text = String(validating: slice, as: UTF8.self) else {
          throw error("invalid UTF-8 in string")
        }
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw error("control character in string") }
      index += 1
    }
    var scalars = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validating: scalars, as: UTF8.self) else {
          throw error("invalid UTF-8 in string")
        }
        return text
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append(0x22)
        case UInt8(ascii: "\\"): scalars.append(0x5C)
        case UInt8(ascii: "/"): scalars.append(0x2F)
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
          var code = try parseHex4()
          if (0xD800..<0xDC00).contains(code) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in \\u escape") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00..<0xE000).contains(code) {
            throw error("unpaired surrogate in \\u escape")
          }
          scalars.append(contentsOf: Array(String(Unicode.Scalar(code)!).utf8))
        default:
          index -= 1
          throw error("invalid escape in string")
        }
      default:
        if byte < 0x20 {
          index -= 1
          throw error("control character in string")
        }
        scalars.append(byte)
      }
    }
    throw error("unterminated string")
  }

  private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
        throw error("invalid hex digit in \\u escape")
      }
      value = value * 16 + UInt32(digit)
      index += 1
    }
    return value
  }
}

/// A JSON document that is not well-formed, with the position of the problem.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
  public let message: String
  /// 1-based line of the problem.
  public let line: Int
  /// 1-based column (in characters) of the problem.
  public let column: Int
  /// Byte offset of the problem.
  public let offset: Int

  public var description: String { "line \(line), column \(column): \(message)" }
}
