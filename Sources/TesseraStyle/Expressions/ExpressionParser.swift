import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Compiles expression JSON into ``Expression``s; errors name the path of the bad part.
package struct ExpressionParser {
  /// The path of the expression in the style (e.g. `layers[2].paint.fill-color`).
  let path: String
  /// Names bound by enclosing `let`s.
  var scope: Set<String> = []

  package init(path: String) {
    self.path = path
  }

  /// Whether JSON is an expression call (an array starting with a known operator name).
  package static func isExpression(_ value: JSONValue) -> Bool {
    guard case .array(let elements) = value, case .string(let name)? = elements.first else { return false }
    return operators.contains(name)
  }

  static let operators: Set<String> = Set([
    "literal", "get", "has", "at", "in", "index-of", "length", "zoom", "geometry-type", "id", "properties", "let",
    "var",
    "!", "all", "any", "==", "!=", "<", "<=", ">", ">=", "match", "case", "coalesce", "step", "interpolate",
    "to-number",
    "to-string", "to-boolean", "to-color", "number", "string", "boolean", "array", "object", "typeof", "rgb", "rgba",
    "concat", "upcase", "downcase", "feature-state", "line-progress", "heatmap-density", "image", "within",
    WithinRegion.centreOperator, "format", "number-format", "is-supported-script", "resolved-locale", "collator",
  ]).union(Expression.MathOperator.allCases.map(\.rawValue))

  func fail(_ message: String, at index: Int? = nil) -> StyleError {
    StyleError(path: index.map { "\(path)[\($0)]" } ?? path, message: message)
  }

  func child(_ index: Int) -> ExpressionParser {
    var parser = ExpressionParser(path: "\(path)[\(index)]")
    parser.scope = scope
    return parser
  }

  /// Compiles `json`.
  package func parse(_ json: JSONValue) throws(StyleError) -> Expression {
    switch json {
    case .null: return .literal(.null)
    case .bool(let value): return .literal(.bool(value))
    case .number(let value): return .literal(.number(value))
    case .string(let value): return .literal(.string(value))
    case .object: throw fail("objects must be wrapped in [\"literal\", …]")
    case .array(let elements):
      guard case .string(let name)? = elements.first else {
        throw fail(
          "expected an expression like [\"get\", \"name\"]; arrays of values must be wrapped in [\"literal\", …]")
      }
      return try call(name, Array(elements.dropFirst()))
    }
  }

  private func arguments(_ arguments: [JSONValue], _ count: ClosedRange<Int>, _ name: String) throws(StyleError)
    -> [Expression]
  {
    guard count.contains(arguments.count) else {
      let expected =
        count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
      throw fail("'\(name)' expects \(expected) argument(s), found \(arguments.count)")
    }
    var result: [Expression] = []
    for (index, argument) in arguments.enumerated() { result.append(try child(index + 1).parse(argument)) }
    return result
  }

  private func call(_ name: String, _ rest: [JSONValue]) throws(StyleError) -> Expression {
    let many = 1...Int.max
    switch name {
    case "literal":
      guard rest.count == 1 else { throw fail("'literal' expects 1 argument") }
      return .literal(StyleValue(json: rest[0]))
    case "get":
      let a = try arguments(rest, 1...2, name)
      return .get(key: a[0], object: a.count > 1 ? a[1] : nil)
    case "has":
      let a = try arguments(rest, 1...2, name)
      return .has(key: a[0], object: a.count > 1 ? a[1] : nil)
    case "at":
      let a = try arguments(rest, 2...2, name)
      return .at(index: a[0], array: a[1])
    case "in":
      let a = try arguments(rest, 2...2, name)
      return .contains(needle: a[0], haystack: a[1])
    case "index-of":
      let a = try arguments(rest, 2...2, name)
      return .indexOf(needle: a[0], haystack: a[1])
    case "length":
      return .length(try arguments(rest, 1...1, name)[0])
    case "zoom":
      _ = try arguments(rest, 0...0, name)
      return .zoom
    case "geometry-type":
      _ = try arguments(rest, 0...0, name)
      return .geometryType
    case "id":
      _ = try arguments(rest, 0...0, name)
      return .featureID
    case "properties":
      _ = try arguments(rest, 0...0, name)
      return .properties
    case "within":
      guard rest.count == 1 else { throw fail("'within' expects one GeoJSON polygon") }
      return .within(try WithinRegion(geoJSON: rest[0], parser: self))
    case WithinRegion.centreOperator:
      guard rest.count == 1 else { throw fail("'\(name)' expects one GeoJSON polygon") }
      var region = try WithinRegion(geoJSON: rest[0], parser: self)
      region.testsCentres = true
      return .within(region)
    case "heatmap-density":
      _ = try arguments(rest, 0...0, name)
      return .heatmapDensity
    case "line-progress":
      _ = try arguments(rest, 0...0, name)
      return .lineProgress
    case "feature-state":
      return .featureState(try arguments(rest, 1...1, name)[0])
    case "var":
      guard rest.count == 1, case .string(let variable) = rest[0] else { throw fail("'var' expects a variable name") }
      guard scope.contains(variable) else { throw fail("unknown variable '\(variable)'") }
      return .variable(variable)
    case "let":
      return try parseLet(rest)
    case "!":
      return .not(try arguments(rest, 1...1, name)[0])
    case "all":
      return .all(try arguments(rest, 0...Int.max, name))
    case "any":
      return .any(try arguments(rest, 0...Int.max, name))
    case "==", "!=", "<", "<=", ">", ">=":
      let a = try arguments(rest, 2...3, name)
      return .compare(Expression.ComparisonOperator(rawValue: name)!, a[0], a[1])
    case "match":
      return try parseMatch(rest)
    case "case":
      guard rest.count >= 3, rest.count % 2 == 1 else {
        throw fail("'case' expects condition/output pairs and a fallback")
      }
      let a = try arguments(rest, 3...Int.max, name)
      let branches = stride(from: 0, to: a.count - 1, by: 2).map { (condition: a[$0], output: a[$0 + 1]) }
      return .conditional(branches, fallback: a[a.count - 1])
    case "coalesce":
      return .coalesce(try arguments(rest, many, name))
    case "step":
      return try parseStep(rest)
    case "interpolate":
      return try parseInterpolate(rest)
    case "to-number": return .coerce(.number, try arguments(rest, many, name))
    case "to-string": return .coerce(.string, try arguments(rest, 1...1, name))
    // An image is known by its name here (the renderer looks it up in the style's sprites).
    case "image": return .coerce(.string, try arguments(rest, 1...1, name))
    case "is-supported-script": return .isSupportedScript(try arguments(rest, 1...1, name)[0])
    case "format": return try parseFormat(rest)
    case "number-format": return .coerce(.string, [try arguments(rest, 2...2, name)[0]])
    case "resolved-locale": return .literal(.string("en"))
    case "collator": return .literal(.null)
    case "to-boolean": return .coerce(.boolean, try arguments(rest, 1...1, name))
    case "to-color": return .coerce(.color, try arguments(rest, many, name))
    case "number": return .assert(.number, try arguments(rest, many, name))
    case "string": return .assert(.string, try arguments(rest, many, name))
    case "boolean": return .assert(.boolean, try arguments(rest, many, name))
    case "object": return .assert(.object, try arguments(rest, many, name))
    case "array":
      // ["array", value], ["array", type, value] or ["array", type, length, value]: the value is last.
      guard !rest.isEmpty, rest.count <= 3 else { throw fail("'array' expects 1 to 3 arguments") }
      return .assert(.array, [try child(rest.count).parse(rest[rest.count - 1])])
    case "typeof":
      return .typeOf(try arguments(rest, 1...1, name)[0])
    case "rgb":
      return .color(try arguments(rest, 3...3, name))
    case "rgba":
      return .color(try arguments(rest, 4...4, name))
    case "concat":
      return .concat(try arguments(rest, many, name))
    case "upcase":
      return .upcase(try arguments(rest, 1...1, name)[0])
    case "downcase":
      return .downcase(try arguments(rest, 1...1, name)[0])
    default:
      guard let op = Expression.MathOperator(rawValue: name) else {
        throw fail("unknown expression operator '\(name)'", at: 0)
      }
      let count: ClosedRange<Int>
      switch op {
      case .e, .pi, .ln2: count = 0...0
      case .add, .multiply, .min, .max: count = 1...Int.max
      case .subtract: count = 1...2
      case .divide, .remainder, .power: count = 2...2
      default: count = 1...1
      }
      return .math(op, try arguments(rest, count, name))
    }
  }

  private func parseFormat(_ rest: [JSONValue]) throws(StyleError) -> Expression {
    var sections: [(content: Expression, options: [String: Expression])] = []
    var index = 0
    while index < rest.count {
      var options: [String: Expression] = [:]
      var contentJSON = rest[index]
      if case .array(let parts) = contentJSON, parts.count == 2, parts[0] == .string("image") {
        // An image section: its name, marked as an image.
        contentJSON = parts[1]
        options["image"] = .literal(.bool(true))
      }
      let content = try child(index + 1).parse(contentJSON)
      if index + 1 < rest.count, case .object(let object) = rest[index + 1] {
        for (key, value) in object.pairs {
          guard ["font-scale", "text-font", "text-color", "vertical-align"].contains(key) else {
            throw fail("unknown 'format' option '\(key)'", at: index + 2)
          }
          options[key] = try child(index + 2).parse(value)
        }
        index += 1
      }
      sections.append((content, options))
      index += 1
    }
    guard !sections.isEmpty else { throw fail("'format' expects at least one section") }
    return .format(sections)
  }

  private func parseLet(_ rest: [JSONValue]) throws(StyleError) -> Expression {
    guard rest.count >= 3, rest.count % 2 == 1 else { throw fail("'let' expects name/value pairs and a body") }
    var inner = self
    var bindings: [(name: String, value: Expression)] = []
    for index in stride(from: 0, to: rest.count - 1, by: 2) {
      guard case .string(let name) = rest[index] else { throw fail("'let' names must be strings", at: index + 1) }
      bindings.append((name, try inner.child(index + 2).parse(rest[index + 1])))
      inner.scope.insert(name)
    }
    return .bind(bindings, body: try inner.child(rest.count).parse(rest[rest.count - 1]))
  }

  private func parseMatch(_ rest: [JSONValue]) throws(StyleError) -> Expression {
    guard rest.count >= 4, rest.count % 2 == 0 else {
      throw fail("'match' expects an input, label/output pairs and a fallback")
    }
    let input = try child(1).parse(rest[0])
    var labels: [StyleValue: Int] = [:]
    var outputs: [Expression] = []
    for index in stride(from: 1, to: rest.count - 1, by: 2) {
      let values: [JSONValue]
      if case .array(let list) = rest[index] {
        guard !list.isEmpty else { throw fail("'match' branch labels must not be empty", at: index + 1) }
        values = list
      } else {
        values = [rest[index]]
      }
      for value in values {
        let label = StyleValue(json: value)
        guard label.number != nil || label.string != nil else {
          throw fail("'match' labels must be numbers or strings", at: index + 1)
        }
        guard labels[label] == nil else { throw fail("'match' label \(label.json) appears twice", at: index + 1) }
        labels[label] = outputs.count
      }
      outputs.append(try child(index + 2).parse(rest[index + 1]))
    }
    return .match(
      input: input, labels: labels, outputs: outputs, fallback: try child(rest.count).parse(rest[rest.count - 1]))
  }

  private func stops(_ rest: ArraySlice<JSONValue>, firstIndex: Int, name: String) throws(StyleError) -> [(
    input: Double, output: Expression
  )] {
    guard !rest.isEmpty, rest.count % 2 == 0 else { throw fail("'\(name)' expects stop/output pairs") }
    var result: [(input: Double, output: Expression)] = []
    var index = rest.startIndex
    while index < rest.endIndex {
      guard case .number(let stop) = rest[index] else {
        throw fail("'\(name)' stop inputs must be literal numbers", at: firstIndex + index - rest.startIndex)
      }
      if let last = result.last, stop <= last.input {
        throw fail(
          "'\(name)' stop inputs must be in strictly ascending order", at: firstIndex + index - rest.startIndex)
      }
      result.append((stop, try child(firstIndex + index - rest.startIndex + 1).parse(rest[index + 1])))
      index += 2
    }
    return result
  }

  private func parseStep(_ rest: [JSONValue]) throws(StyleError) -> Expression {
    guard rest.count >= 2 else { throw fail("'step' expects an input and a base output") }
    let input = try child(1).parse(rest[0])
    let base = try child(2).parse(rest[1])
    let stopList = rest.count > 2 ? try stops(rest[2...], firstIndex: 3, name: "step") : []
    return .step(input: input, base: base, stops: stopList)
  }

  private func parseInterpolate(_ rest: [JSONValue]) throws(StyleError) -> Expression {
    guard rest.count >= 4 else { throw fail("'interpolate' expects a type, an input and at least one stop") }
    guard case .array(let type) = rest[0], case .string(let kind)? = type.first else {
      throw fail("'interpolate' type must be [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", …]", at: 1)
    }
    let interpolation: Expression.Interpolation
    switch (kind, type.count) {
    case ("linear", 1): interpolation = .linear
    case ("exponential", 2):
      guard case .number(let base) = type[1] else { throw fail("exponential base must be a number", at: 1) }
      interpolation = .exponential(base: base)
    case ("cubic-bezier", 5):
      let values = type.dropFirst().compactMap(\.number)
      guard values.count == 4, (0...1).contains(values[0]), (0...1).contains(values[2]) else {
        throw fail("cubic-bezier expects four numbers with x1, x2 in 0…1", at: 1)
      }
      interpolation = .cubicBezier(values[0], values[1], values[2], values[3])
    default:
      throw fail("unknown interpolation type \(JSONValue.array(type).serialized())", at: 1)
    }
    return .interpolate(
      interpolation, input: try child(2).parse(rest[1]),
      stops: try stops(rest[2...], firstIndex: 3, name: "interpolate"))
  }
}

extension StyleValue {
  /// A JSON value as a style value (no colour parsing: strings stay strings).
  package init(json: JSONValue) {
    switch json {
    case .null: self = .null
    case .bool(let value): self = .bool(value)
    case .number(let value): self = .number(value)
    case .string(let value): self = .string(value)
    case .array(let values): self = .array(values.map(StyleValue.init(json:)))
    case .object(let object):
      var members: [String: StyleValue] = [:]
      for (key, value) in object.pairs { members[key] = StyleValue(json: value) }
      self = .object(members)
    }
  }
}
