import TesseraJSON
import TesseraNumbers

/// Legacy style functions (`{"stops": …, "base": …, "property": …, "type": …}`) converted to
/// expressions:
/// - zoom functions (no `property`) interpolate or step over zoom;
/// - property functions (`property`) work on the feature attribute: `exponential`,
///   `interval`, `categorical` (match) or `identity`;
/// - zoom-and-property functions (stops keyed by `{"zoom", "value"}`) interpolate linearly over zoom
///   between property functions.
/// The default `type` is `exponential` for interpolatable properties, `interval` otherwise;
/// `default` (or the property's default) applies when the attribute is missing or unusable.
enum LegacyFunction {
  static func convert(_ json: JSONValue, spec: PropertySpec, path: String) throws(StyleError) -> Expression {
    let root = JSONCursor(root: json, source: "style")
    func fail(_ message: String) -> StyleError { StyleError(path: path, message: message) }
    let kind = (try? root["type"].optionalString()) ?? nil ?? (spec.isInterpolatable ? "exponential" : "interval")
    guard ["exponential", "interval", "categorical", "identity"].contains(kind) else {
      throw fail("unknown function type '\(kind)'")
    }
    let base = root["base"].value?.number ?? 1
    let property = root["property"].value?.string
    let fallback = try literal(root["default"].value ?? .null, spec: spec, path: "\(path).default", orDefault: true)
    if kind == "identity" {
      guard let property else { throw fail("identity functions need a property") }
      return .coalesce([coerced(.get(key: .literal(.string(property)), object: nil), spec: spec), fallback])
    }
    guard case .array(let stops)? = root["stops"].value, !stops.isEmpty else {
      throw fail("a function needs a non-empty stops array")
    }
    var pairs: [(input: JSONValue, output: JSONValue)] = []
    for (index, stop) in stops.enumerated() {
      guard case .array(let pair) = stop, pair.count == 2 else { throw fail("stops[\(index)] must be [input, output]") }
      pairs.append((pair[0], pair[1]))
    }
    if case .object = pairs[0].input {
      guard let property else { throw fail("zoom-and-property stops need a property") }
      return try composite(
        pairs, kind: kind, base: base, property: property, spec: spec, fallback: fallback, path: path)
    }
    if let property {
      let input = Expression.get(key: .literal(.string(property)), object: nil)
      return try curve(pairs, kind: kind, base: base, input: input, spec: spec, fallback: fallback, path: path)
    }
    guard kind != "categorical" else { throw fail("categorical functions need a property") }
    return try curve(pairs, kind: kind, base: base, input: .zoom, spec: spec, fallback: fallback, path: path)
  }

  /// One function over `input` (zoom or an attribute).
  static func curve(
    _ pairs: [(input: JSONValue, output: JSONValue)], kind: String, base: Double, input: Expression, spec: PropertySpec,
    fallback: Expression, path: String
  ) throws(StyleError) -> Expression {
    var outputs: [Expression] = []
    for (index, pair) in pairs.enumerated() {
      outputs.append(try literal(pair.output, spec: spec, path: "\(path).stops[\(index)][1]"))
    }
    let isZoom: Bool = { if case .zoom = input { return true } else { return false } }()
    if kind == "categorical" {
      var labels: [StyleValue: Int] = [:]
      for (index, pair) in pairs.enumerated() where labels[StyleValue(json: pair.input)] == nil {
        labels[StyleValue(json: pair.input)] = index
      }
      return .match(input: input, labels: labels, outputs: outputs, fallback: fallback)
    }
    var stops: [(input: Double, output: Expression)] = []
    for (index, pair) in pairs.enumerated() {
      guard case .number(let value) = pair.input else {
        throw StyleError(path: "\(path).stops[\(index)][0]", message: "stop inputs must be numbers")
      }
      if let last = stops.last, value <= last.input { continue }
      stops.append((value, outputs[index]))
    }
    let curve: Expression
    if kind == "interval" {
      curve = .step(input: input, base: stops[0].output, stops: Array(stops.dropFirst()))
    } else if stops.count == 1 {
      curve = stops[0].output
    } else {
      curve = .interpolate(.exponential(base: base), input: input, stops: stops)
    }
    if isZoom { return curve }
    // An attribute that is missing or not a number gives the default.
    let isNumber = Expression.compare(.equal, .typeOf(input), .literal(.string("number")))
    return .conditional([(isNumber, curve)], fallback: fallback)
  }

  /// Zoom-and-property stops: for each zoom a property function, interpolated (or stepped)
  /// over zoom.
  static func composite(
    _ pairs: [(input: JSONValue, output: JSONValue)], kind: String, base: Double, property: String, spec: PropertySpec,
    fallback: Expression, path: String
  ) throws(StyleError) -> Expression {
    var byZoom: [(zoom: Double, pairs: [(input: JSONValue, output: JSONValue)])] = []
    for (index, pair) in pairs.enumerated() {
      guard case .object(let key) = pair.input, let zoom = key["zoom"]?.number, let value = key["value"] else {
        throw StyleError(path: "\(path).stops[\(index)][0]", message: "expected {\"zoom\": …, \"value\": …}")
      }
      if byZoom.last?.zoom == zoom {
        byZoom[byZoom.count - 1].pairs.append((value, pair.output))
      } else {
        byZoom.append((zoom, [(value, pair.output)]))
      }
    }
    let input = Expression.get(key: .literal(.string(property)), object: nil)
    var stops: [(input: Double, output: Expression)] = []
    for group in byZoom {
      stops.append(
        (
          group.zoom,
          try curve(group.pairs, kind: kind, base: base, input: input, spec: spec, fallback: fallback, path: path)
        ))
    }
    if stops.count == 1 { return stops[0].output }
    // The function's type and base apply to the property; over zoom, interpolatable properties
    // blend linearly (MapLibre's conversion).
    if spec.isInterpolatable {
      return .interpolate(.linear, input: .zoom, stops: stops)
    }
    return .step(input: .zoom, base: stops[0].output, stops: Array(stops.dropFirst()))
  }

  /// A stop output as a literal of the property's type.
  static func literal(_ json: JSONValue, spec: PropertySpec, path: String, orDefault: Bool = false) throws(StyleError)
    -> Expression
  {
    if orDefault && json == .null { return .literal(spec.defaultValue) }
    guard let value = PropertyValue.conform(StyleValue(json: json), to: spec) else {
      throw StyleError(path: path, message: "expected \(PropertyValue.describe(spec.type)), found \(json.serialized())")
    }
    return .literal(value)
  }

  /// An attribute read as the property's type (identity functions).
  static func coerced(_ expression: Expression, spec: PropertySpec) -> Expression {
    switch spec.type {
    case .color: return .coerce(.color, [expression, .literal(.null)])
    default: return expression
    }
  }
}
