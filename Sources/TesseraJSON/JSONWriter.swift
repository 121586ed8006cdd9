import TesseraNumbers

/// Serialises ``JSONValue``s: keys in the object's order, numbers in the shortest form that
/// reads back to the same double (integers without a fraction), non-finite numbers as null.
extension JSONValue {
  /// The JSON text of this value; `pretty` indents with two spaces, `sortingKeys` writes
  /// every object's keys in sorted order (so equal values written in different orders read
  /// the same).
  package func serialized(pretty: Bool = false, sortingKeys: Bool = false) -> String {
    var output = ""
    write(to: &output, pretty: pretty, sortingKeys: sortingKeys, indent: 0)
    return output
  }

  private func write(to output: inout String, pretty: Bool, sortingKeys: Bool, indent: Int) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let value): output += JSONValue.format(value)
    case .string(let value): JSONValue.writeString(value, to: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "["
      for (position, element) in elements.enumerated() {
        if position > 0 { output += "," }
        if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
        element.write(to: &output, pretty: pretty, sortingKeys: sortingKeys, indent: indent + 1)
      }
      if pretty { output += "\n" + String(repeating: "  ", count: indent) }
      output += "]"
    case .object(let object):
      guard object.count > 0 else {
        output += "{}"
        return
      }
      output += "{"
      let pairs = sortingKeys ? object.pairs.sorted { $0.key < $1.key } : object.pairs
      for (position, pair) in pairs.enumerated() {
        if position > 0 { output += "," }
        if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
        JSONValue.writeString(pair.key, to: &output)
        output += pretty ? ": " : ":"
        pair.value.write(to: &output, pretty: pretty, sortingKeys: sortingKeys, indent: indent + 1)
      }
      if pretty { output += "\n" + String(repeating: "  ", count: indent) }
      output += "}"
    }
  }

  /// A number as JSON: integers without ".0", others in Swift's shortest round-trip form.
  package static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(clamping: value)) }
    return "\(value)"
  }

  private static func writeString(_ value: String, to output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
  }
}
