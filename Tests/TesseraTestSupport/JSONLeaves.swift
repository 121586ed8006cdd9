import TesseraJSON

/// The leaves of a JSON document (numbers, strings, booleans, nulls) with their paths, and the
/// document with one leaf replaced: the sweeps put hostile values in every field this way.
public enum JSONLeaves {
  /// A step of a path: an object member or an array element.
  public enum Step: Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
      switch self {
      case .key(let key): return key
      case .index(let index): return "[\(index)]"
      }
    }
  }

  /// Every leaf of `document` with its path, depth first.
  public static func all(_ document: JSONValue, path: [Step] = []) -> [(path: [Step], value: JSONValue)] {
    switch document {
    case .object(let object): return object.pairs.flatMap { all($0.value, path: path + [.key($0.key)]) }
    case .array(let elements):
      return elements.enumerated().flatMap { all($0.element, path: path + [.index($0.offset)]) }
    default: return [(path, document)]
    }
  }

  /// `document` with the leaf at `path` replaced by `value`.
  public static func replacing(_ path: ArraySlice<Step>, in document: JSONValue, with value: JSONValue) -> JSONValue {
    guard let step = path.first else { return value }
    switch (step, document) {
    case (.key(let key), .object(var object)):
      if let member = object[key] { object[key] = replacing(path.dropFirst(), in: member, with: value) }
      return .object(object)
    case (.index(let index), .array(var elements)) where elements.indices.contains(index):
      elements[index] = replacing(path.dropFirst(), in: elements[index], with: value)
      return .array(elements)
    default:
      return document
    }
  }

  /// The text of `document` with the leaf at `path` written as `literal` (JSON text such as
  /// `1e999` that no JSONValue holds).
  public static func text(_ document: JSONValue, replacing path: [Step], withLiteral literal: String) -> String {
    let marker = "\u{1}hostile\u{1}"
    let marked = replacing(path[...], in: document, with: .string(marker))
    return marked.serialized().replacingOccurrences(of: "\"\\u0001hostile\\u0001\"", with: literal)
      .replacingOccurrences(of: "\"\u{1}hostile\u{1}\"", with: literal)
  }

  /// A path as text (`markers[0].position[1]`).
  public static func describe(_ path: [Step]) -> String {
    var text = ""
    for step in path {
      switch step {
      case .key(let key): text += text.isEmpty ? key : "." + key
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }
}
