import TesseraJSON
import TesseraNumbers

/// Layer filters: expression filters, and the legacy filter syntax converted to expressions.
///
/// Legacy comparisons are strict about types (`["==", "level", 2]` does not match "2") and a
/// feature without the attribute fails `==`, `<`… and passes `!=` and `!in`; `$type` is the
/// geometry type and `$id` the feature id. A filter whose evaluation fails rejects the feature.
package enum Filter {
  /// Compiles a filter.
  package static func parse(_ json: JSONValue, path: String) throws(StyleError) -> Expression {
    if isExpressionFilter(json) { return try ExpressionParser(path: path).parse(json) }
    return try legacy(json, path: path)
  }

  /// MapLibre's test for whether a filter uses expression syntax.
  static func isExpressionFilter(_ json: JSONValue) -> Bool {
    if case .bool = json { return true }
    guard case .array(let elements) = json, case .string(let op)? = elements.first else { return false }
    func isKeyString(_ value: JSONValue) -> Bool { if case .string = value { return true } else { return false } }
    func isArray(_ value: JSONValue) -> Bool { if case .array = value { return true } else { return false } }
    switch op {
    case "has":
      guard elements.count >= 2 else { return false }
      return elements[1] != .string("$id") && elements[1] != .string("$type")
    case "in":
      return elements.count >= 3 && (!isKeyString(elements[1]) || isArray(elements[2]))
    case "!in", "!has", "none":
      return false
    case "==", "!=", ">", ">=", "<", "<=":
      return elements.count != 3 || isArray(elements[1]) || isArray(elements[2])
    case "any", "all":
      return elements.dropFirst().allSatisfy { child in
        if case .bool = child { return true }
        return isExpressionFilter(child)
      }
    default:
      return true
    }
  }

  static func legacy(_ json: JSONValue, path: String) throws(StyleError) -> Expression {
    guard case .array(let elements) = json, case .string(let op)? = elements.first else {
      throw StyleError(path: path, message: "a filter must be an array like [\"==\", \"class\", \"park\"]")
    }
    func key(_ index: Int) throws(StyleError) -> Expression {
      guard index < elements.count, case .string(let name) = elements[index] else {
        throw StyleError(path: "\(path)[\(index)]", message: "expected an attribute name")
      }
      switch name {
      case "$type": return .geometryType
      case "$id": return .featureID
      default: return .get(key: .literal(.string(name)), object: nil)
      }
    }
    func values(from index: Int) -> [StyleValue] { elements.dropFirst(index).map(StyleValue.init(json:)) }
    switch op {
    case "all", "any", "none":
      var children: [Expression] = []
      for (index, child) in elements.dropFirst().enumerated() {
        children.append(try legacy(child, path: "\(path)[\(index + 1)]"))
      }
      if op == "all" { return .all(children) }
      if op == "any" { return .any(children) }
      return .not(.any(children))
    case "has":
      return .has(key: .literal(elements.count > 1 ? StyleValue(json: elements[1]) : .null), object: nil)
    case "!has":
      return .not(.has(key: .literal(elements.count > 1 ? StyleValue(json: elements[1]) : .null), object: nil))
    case "in", "!in":
      let test = Expression.contains(needle: try key(1), haystack: .literal(.array(values(from: 2))))
      return op == "in" ? test : .not(test)
    case "==", "!=":
      guard elements.count == 3 else { throw StyleError(path: path, message: "'\(op)' filters take a key and a value") }
      return .compare(op == "==" ? .equal : .notEqual, try key(1), .literal(StyleValue(json: elements[2])))
    case "<", "<=", ">", ">=":
      guard elements.count == 3 else { throw StyleError(path: path, message: "'\(op)' filters take a key and a value") }
      let value = StyleValue(json: elements[2])
      let attribute = try key(1)
      // Only values of the same type compare; anything else fails the filter (no error).
      let sameType = Expression.compare(.equal, .typeOf(attribute), .literal(.string(value.typeName)))
      return .all([sameType, .compare(Expression.ComparisonOperator(rawValue: op)!, attribute, .literal(value))])
    default:
      throw StyleError(path: "\(path)[0]", message: "unknown filter operator '\(op)'")
    }
  }
}
