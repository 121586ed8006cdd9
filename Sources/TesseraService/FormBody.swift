import Foundation
import TesseraJSON
import TesseraNumbers

/// Query options sent in a POST body instead of the URL, for static maps whose paths and
/// markers are too long for a URL: either a form (`application/x-www-form-urlencoded`,
/// `path=…&marker=…`) or a JSON object whose values are strings, numbers, booleans or arrays of
/// them (`{"path": ["-74,40|-73.9,40.1"], "marker": ["-74,40"], "padding": 0.2}`). Body options
/// follow the URL's, so a repeated option (path, marker) adds to them.
enum FormBody {
  /// The options of a body, in order; a ServiceError (400) names what is wrong.
  static func arguments(of body: [UInt8], contentType: String?) throws(ServiceError) -> [(key: String, value: String)] {
    let type = (contentType ?? "").lowercased()
    let firstByte = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    if type.contains("json") || (!type.contains("form") && firstByte == UInt8(ascii: "{")) {
      return try jsonArguments(body)
    }
    return try formArguments(body)
  }

  private static func formArguments(_ body: [UInt8]) throws(ServiceError) -> [(key: String, value: String)] {
    guard let text = String(validating: body, as: UTF8.self) else {
      throw ServiceError(status: 400, reason: "the form body is not UTF-8 text")
    }
    var arguments: [(key: String, value: String)] = []
    for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let key = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
        throw ServiceError(status: 400, reason: "the form body has a malformed percent escape in '\(pair.prefix(60))'")
      }
      arguments.append((key, value))
    }
    return arguments
  }

  /// Form decoding: `+` is a space, `%XX` a byte.
  private static func decode(_ text: Substring) -> String? {
    text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
  }

  private static func jsonArguments(_ body: [UInt8]) throws(ServiceError) -> [(key: String, value: String)] {
    let document: JSONValue
    do {
      document = try JSONParser.parse(body)
    } catch {
      throw ServiceError(status: 400, reason: "the body is not JSON: \(error)")
    }
    guard case .object(let object) = document else {
      throw ServiceError(status: 400, reason: "the JSON body must be an object of query options")
    }
    var arguments: [(key: String, value: String)] = []
    for key in object.keys {
      guard let value = object[key] else { continue }
      let items: [JSONValue]
      if case .array(let array) = value { items = array } else { items = [value] }
      for item in items {
        switch item {
        case .string(let text): arguments.append((key, text))
        case .number(let number):
          let integral = number.rounded() == number && abs(number) < 1e15
          arguments.append((key, integral ? String(Int(clamping: number)) : String(number)))
        case .bool(let flag): arguments.append((key, flag ? "true" : "false"))
        default:
          throw ServiceError(
            status: 400, reason: "body option '\(key)': expected a string, number, boolean or an array of them")
        }
      }
    }
    return arguments
  }
}

extension HTTPRequest {
  /// The request with the options of its POST body appended to the URL's.
  func addingBodyArguments() throws(ServiceError) -> HTTPRequest {
    guard method == "POST", !body.isEmpty else { return self }
    let extra = try FormBody.arguments(of: body, contentType: header("Content-Type"))
    return HTTPRequest(
      method: method, path: path, arguments: arguments + extra, targetLength: targetLength, rawTarget: rawTarget,
      body: body, bodyTooLarge: bodyTooLarge, client: client, handle: handle, memoryHeaders: memoryHeaders)
  }
}
