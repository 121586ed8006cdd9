import TesseraImage
import TesseraJSON
import TesseraNumbers

/// The value a style gives a property: a constant, or an expression of zoom and/or feature
/// data (legacy functions are converted to expressions).
package struct PropertyValue: Sendable {
  package let spec: PropertySpec
  package let expression: Expression
  /// Whether the value depends on feature data.
  package let isDataDriven: Bool
  /// Whether the value depends on zoom.
  package let isZoomDependent: Bool

  init(spec: PropertySpec, expression: Expression) {
    self.spec = spec
    self.expression = expression
    isDataDriven = !expression.isFeatureConstant
    isZoomDependent = !expression.isZoomConstant
  }

  /// The property's default.
  package init(default spec: PropertySpec) {
    self.init(spec: spec, expression: spec.defaultExpression ?? .literal(spec.defaultValue))
  }

  /// The constant value, when there is one.
  package var constant: StyleValue? { isDataDriven || isZoomDependent ? nil : expression.constantValue }

  /// Evaluates at `zoom` for `feature`; a run-time failure or a value of the wrong type gives
  /// the default (as MapLibre does).
  package func evaluate(zoom: Double?, feature: (any StyleFeature)? = nil) -> StyleValue {
    evaluate(EvaluationContext(zoom: zoom, feature: feature))
  }

  /// Evaluates in `context` (with a heatmap density or a line progress set, say); a failure or
  /// a value of the wrong type gives the default.
  package func evaluate(_ context: EvaluationContext) -> StyleValue {
    guard let value = try? expression.evaluate(context) else { return spec.defaultValue }
    return PropertyValue.conform(value, to: spec) ?? spec.defaultValue
  }

  /// The number, colour, … the value resolves to.
  package func number(zoom: Double?, feature: (any StyleFeature)? = nil) -> Double {
    evaluate(zoom: zoom, feature: feature).number ?? spec.defaultValue.number ?? 0
  }

  package func color(zoom: Double?, feature: (any StyleFeature)? = nil) -> Color {
    evaluate(zoom: zoom, feature: feature).color ?? .black
  }

  /// The weight (0…1) of the value at zoom `upper` against the value at `lower` for a camera
  /// at `zoom`, following the expression's zoom curve: how values evaluated per feature at two
  /// zooms are blended on the GPU. Steps give 0 (the lower value).
  package func zoomInterpolationFactor(zoom: Double, lower: Double, upper: Double) -> Double {
    guard isZoomDependent, let curve = PropertyValue.zoomCurve(expression) else { return 0 }
    let factor = Expression.interpolationFactor(curve, input: zoom, lower: lower, upper: upper)
    return min(max(factor, 0), 1)
  }

  /// The interpolation of a top-level `["interpolate", …, ["zoom"], …]`.
  static func zoomCurve(_ expression: Expression) -> Expression.Interpolation? {
    switch expression {
    case .interpolate(let kind, .zoom, _): return kind
    case .bind(_, let body): return zoomCurve(body)
    case .coalesce(let values): return values.lazy.compactMap(zoomCurve).first
    default: return nil
    }
  }

  /// `value` made to fit the property's type (strings → colours, bounds), or nil.
  static func conform(_ value: StyleValue, to spec: PropertySpec) -> StyleValue? {
    switch spec.type {
    case .color:
      return value.color.map(StyleValue.color)
    case .number:
      guard case .number(let number) = value, number.isFinite else { return nil }
      return .number(spec.minimum.map { max(number, $0) } ?? number)
    case .boolean:
      return value.bool.map(StyleValue.bool)
    case .string:
      return value.string.map(StyleValue.string)
    case .enumeration(let allowed):
      guard let text = value.string, allowed.contains(text) else { return nil }
      return value
    case .numberArray(let count):
      guard let numbers = value.numbers, count == nil || numbers.count == count else { return nil }
      return value
    case .formatted:
      switch value {
      case .null: return .string("")
      case .object: return value.formattedSections != nil ? value : nil
      case .array: return nil
      default: return .string(value.formatted)
      }
    case .stringArray:
      guard case .array(let elements) = value, elements.allSatisfy({ $0.string != nil }) else { return nil }
      return value
    case .unsupported:
      return value
    }
  }

  /// Parses a property's JSON: a literal, an expression or a legacy function.
  package static func parse(_ json: JSONValue, spec: PropertySpec, path: String) throws(StyleError) -> PropertyValue {
    let expression: Expression
    if case .object = json {
      expression = try LegacyFunction.convert(json, spec: spec, path: path)
    } else if ExpressionParser.isExpression(json) {
      expression = try ExpressionParser(path: path).parse(json).typed(as: spec.type)
      if !spec.isDataDriven && !expression.isFeatureConstant {
        throw StyleError(path: path, message: "data expressions are not supported for \(spec.name)")
      }
    } else {
      let value = StyleValue(json: json)
      guard let conformed = conform(value, to: spec) else {
        throw StyleError(path: path, message: "expected \(describe(spec.type)), found \(json.serialized())")
      }
      expression = .literal(conformed)
    }
    let property = PropertyValue(spec: spec, expression: expression)
    // Fold expressions of neither zoom nor data into constants.
    if !property.isDataDriven && !property.isZoomDependent, expression.constantValue == nil,
      expression.isDensityAndProgressConstant
    {
      return PropertyValue(spec: spec, expression: .literal(property.evaluate(zoom: nil)))
    }
    return property
  }

  static func describe(_ type: PropertyType) -> String {
    switch type {
    case .color: return "a colour"
    case .number: return "a number"
    case .boolean: return "true or false"
    case .string: return "a string"
    case .enumeration(let values): return "one of " + values.joined(separator: ", ")
    case .numberArray(let count): return count.map { "an array of \($0) numbers" } ?? "an array of numbers"
    case .formatted: return "text or a format expression"
    case .stringArray: return "an array of strings"
    case .unsupported: return "a value"
    }
  }
}

extension Expression {
  /// The expression with string literals in output positions turned into colours, for colour
  /// properties (so they are parsed once, not per evaluation).
  func typed(as type: PropertyType) -> Expression {
    guard type == .color else { return self }
    return mapOutputs { output in
      if case .literal(.string(let text)) = output, let color = try? Color(css: text) { return .literal(.color(color)) }
      return output
    }
  }

  /// Rebuilds the expression with `transform` applied to every output position (the leaves a
  /// result can come from).
  func mapOutputs(_ transform: (Expression) -> Expression) -> Expression {
    switch self {
    case .match(let input, let labels, let outputs, let fallback):
      return .match(
        input: input, labels: labels, outputs: outputs.map { $0.mapOutputs(transform) },
        fallback: fallback.mapOutputs(transform))
    case .conditional(let branches, let fallback):
      return .conditional(
        branches.map { ($0.condition, $0.output.mapOutputs(transform)) }, fallback: fallback.mapOutputs(transform))
    case .coalesce(let values):
      return .coalesce(values.map { $0.mapOutputs(transform) })
    case .step(let input, let base, let stops):
      return .step(
        input: input, base: base.mapOutputs(transform), stops: stops.map { ($0.input, $0.output.mapOutputs(transform)) }
      )
    case .interpolate(let kind, let input, let stops):
      return .interpolate(kind, input: input, stops: stops.map { ($0.input, $0.output.mapOutputs(transform)) })
    case .bind(let bindings, let body):
      return .bind(bindings, body: body.mapOutputs(transform))
    default:
      return transform(self)
    }
  }
}
