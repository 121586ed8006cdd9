import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

extension Expression {
  /// Evaluates the expression; throws when a value has the wrong type at run time.
  package func evaluate(_ context: EvaluationContext) throws(ExpressionEvaluationError) -> StyleValue {
    switch self {
    case .literal(let value):
      return value
    case .zoom:
      guard let zoom = context.zoom else { throw ExpressionEvaluationError("zoom is not available here") }
      return .number(zoom)
    case .heatmapDensity:
      return .number(context.heatmapDensity ?? 0)
    case .lineProgress:
      return .number(context.lineProgress ?? 0)
    case .geometryType:
      return .string(context.feature?.geometryTypeName ?? "Unknown")
    case .featureState(let keyExpression):
      let key = try string(keyExpression, context, "feature-state")
      return context.feature?.state[key] ?? .null
    case .within(let region):
      return .bool(context.feature.map(region.contains) ?? false)
    case .featureID:
      return context.feature?.identifier ?? .null
    case .properties:
      return .object(context.feature?.properties ?? [:])
    case .variable(let name):
      guard let value = context.variables[name] else { throw ExpressionEvaluationError("unknown variable \(name)") }
      return value
    case .bind(let bindings, let body):
      var inner = context
      for binding in bindings { inner.variables[binding.name] = try binding.value.evaluate(inner) }
      return try body.evaluate(inner)
    case .get(let keyExpression, let object):
      let key = try string(keyExpression, context, "get")
      if let object {
        guard case .object(let members) = try object.evaluate(context) else { return .null }
        return members[key] ?? .null
      }
      return context.feature?.property(key) ?? .null
    case .has(let keyExpression, let object):
      let key = try string(keyExpression, context, "has")
      if let object {
        guard case .object(let members) = try object.evaluate(context) else { return .bool(false) }
        return .bool(members[key] != nil)
      }
      return .bool(context.feature?.property(key) != nil)
    case .at(let indexExpression, let arrayExpression):
      guard case .number(let index) = try indexExpression.evaluate(context),
        case .array(let array) = try arrayExpression.evaluate(context)
      else { throw ExpressionEvaluationError("at: expected a number and an array") }
      guard index >= 0, index == index.rounded(), index < Double(array.count) else {
        throw ExpressionEvaluationError("at: index \(index) out of bounds")
      }
      return array[Int(clamping: index)]
    case .contains(let needleExpression, let haystackExpression):
      let needle = try needleExpression.evaluate(context)
      switch try haystackExpression.evaluate(context) {
      case .array(let elements): return .bool(elements.contains(needle))
      case .string(let text):
        guard case .string(let part) = needle else { return .bool(false) }
        return .bool(text.contains(part))
      case .null: return .bool(false)
      case let other:
        throw ExpressionEvaluationError("in: expected an array or string haystack, found \(other.typeName)")
      }
    case .indexOf(let needleExpression, let haystackExpression):
      let needle = try needleExpression.evaluate(context)
      switch try haystackExpression.evaluate(context) {
      case .array(let elements): return .number(Double(elements.firstIndex(of: needle) ?? -1))
      case .string(let text):
        guard case .string(let part) = needle, let range = text.range(of: part) else { return .number(-1) }
        return .number(Double(text.distance(from: text.startIndex, to: range.lowerBound)))
      case let other: throw ExpressionEvaluationError("index-of: expected an array or string, found \(other.typeName)")
      }
    case .length(let value):
      switch try value.evaluate(context) {
      case .array(let elements): return .number(Double(elements.count))
      case .string(let text): return .number(Double(text.count))
      case let other: throw ExpressionEvaluationError("length: expected an array or string, found \(other.typeName)")
      }
    case .not(let value):
      return .bool(!(try boolean(value, context, "!")))
    case .all(let values):
      for value in values where !(try boolean(value, context, "all")) { return .bool(false) }
      return .bool(true)
    case .any(let values):
      for value in values where try boolean(value, context, "any") { return .bool(true) }
      return .bool(false)
    case .compare(let op, let a, let b):
      return .bool(try Expression.compare(op, try a.evaluate(context), try b.evaluate(context)))
    case .match(let input, let labels, let outputs, let fallback):
      let value = try input.evaluate(context)
      if let index = labels[value] { return try outputs[index].evaluate(context) }
      return try fallback.evaluate(context)
    case .conditional(let branches, let fallback):
      for branch in branches where try boolean(branch.condition, context, "case") {
        return try branch.output.evaluate(context)
      }
      return try fallback.evaluate(context)
    case .coalesce(let values):
      for value in values {
        let result = try value.evaluate(context)
        if result != .null { return result }
      }
      return .null
    case .step(let inputExpression, let base, let stops):
      let input = try number(inputExpression, context, "step")
      var output = base
      for stop in stops {
        if input < stop.input { break }
        output = stop.output
      }
      return try output.evaluate(context)
    case .interpolate(let kind, let inputExpression, let stops):
      let input = try number(inputExpression, context, "interpolate")
      return try Expression.interpolate(kind, input: input, stops: stops, context: context)
    case .coerce(let type, let values):
      return try Expression.coerce(type, values, context)
    case .assert(let type, let values):
      for value in values {
        let result = try value.evaluate(context)
        switch (type, result) {
        case (.number, .number), (.string, .string), (.boolean, .bool), (.array, .array), (.object, .object):
          return result
        default: continue
        }
      }
      throw ExpressionEvaluationError("expected a value of type \(type.rawValue)")
    case .typeOf(let value):
      return .string(try value.evaluate(context).typeName)
    case .color(let channels):
      var components: [Double] = []
      for channel in channels { components.append(try number(channel, context, "rgb")) }
      if components[0...2].contains(where: { $0 < 0 || $0 > 255 })
        || (components.count == 4 && (components[3] < 0 || components[3] > 1))
      {
        throw ExpressionEvaluationError("rgb: channel values out of range")
      }
      return .color(
        Color(
          red: components[0] / 255, green: components[1] / 255, blue: components[2] / 255,
          alpha: components.count == 4 ? components[3] : 1))
    case .concat(let values):
      var text = ""
      for value in values { text += try value.evaluate(context).formatted }
      return .string(text)
    case .upcase(let value):
      return .string(try string(value, context, "upcase").uppercased())
    case .isSupportedScript(let value):
      let text = try string(value, context, "is-supported-script")
      guard context.feature?.shapesComplexScripts == false else { return .bool(true) }
      return .bool(!text.unicodeScalars.contains { Expression.needsComplexShaping($0.value) })
    case .format(let sections):
      var result: [StyleValue] = []
      for section in sections {
        let content = try section.content.evaluate(context)
        if let inner = content.formattedSections {
          result += inner
          continue
        }
        var fields: [String: StyleValue] = ["text": .string(content.formatted)]
        if section.options["image"] != nil { fields = ["image": .string(content.formatted)] }
        for (key, option) in section.options where key != "image" {
          let value = try option.evaluate(context)
          if key == "text-color", let color = value.color {
            fields[key] = .color(color)
          } else if value != .null {
            fields[key] = value
          }
        }
        result.append(.object(fields))
      }
      return .object(["formatted": .array(result)])
    case .downcase(let value):
      return .string(try string(value, context, "downcase").lowercased())
    case .math(let op, let operands):
      var values: [Double] = []
      for operand in operands { values.append(try number(operand, context, op.rawValue)) }
      return .number(try Expression.calculate(op, values))
    }
  }

  private func boolean(_ expression: Expression, _ context: EvaluationContext, _ name: String)
    throws(ExpressionEvaluationError) -> Bool
  {
    guard case .bool(let value) = try expression.evaluate(context) else {
      throw ExpressionEvaluationError("\(name): expected a boolean")
    }
    return value
  }

  private func number(_ expression: Expression, _ context: EvaluationContext, _ name: String)
    throws(ExpressionEvaluationError) -> Double
  {
    guard case .number(let value) = try expression.evaluate(context) else {
      throw ExpressionEvaluationError("\(name): expected a number")
    }
    return value
  }

  private func string(_ expression: Expression, _ context: EvaluationContext, _ name: String)
    throws(ExpressionEvaluationError) -> String
  {
    guard case .string(let value) = try expression.evaluate(context) else {
      throw ExpressionEvaluationError("\(name): expected a string")
    }
    return value
  }

  /// `==` and `!=` compare any values (different types are unequal); ordering needs two numbers
  /// or two strings.
  static func compare(_ op: ComparisonOperator, _ a: StyleValue, _ b: StyleValue) throws(ExpressionEvaluationError)
    -> Bool
  {
    switch op {
    case .equal: return a == b
    case .notEqual: return a != b
    default: break
    }
    let order: Int
    switch (a, b) {
    case (.number(let x), .number(let y)): order = x < y ? -1 : (x > y ? 1 : 0)
    case (.string(let x), .string(let y)): order = x < y ? -1 : (x > y ? 1 : 0)
    default:
      throw ExpressionEvaluationError(
        "\(op.rawValue): expected two numbers or two strings, found \(a.typeName) and \(b.typeName)")
    }
    switch op {
    case .less: return order < 0
    case .lessOrEqual: return order <= 0
    case .greater: return order > 0
    default: return order >= 0
    }
  }

  static func coerce(_ type: ValueType, _ values: [Expression], _ context: EvaluationContext)
    throws(ExpressionEvaluationError)
    -> StyleValue
  {
    switch type {
    case .string:
      return .string(try values[0].evaluate(context).formatted)
    case .boolean:
      switch try values[0].evaluate(context) {
      case .null: return .bool(false)
      case .bool(let flag): return .bool(flag)
      case .number(let number): return .bool(number != 0 && !number.isNaN)
      case .string(let text): return .bool(!text.isEmpty)
      default: return .bool(true)
      }
    case .number:
      for value in values {
        switch try value.evaluate(context) {
        case .null: return .number(0)
        case .bool(let flag): return .number(flag ? 1 : 0)
        case .number(let number): return .number(number)
        case .string(let text):
          let trimmed = text.trimmingCharacters(in: .whitespaces)
          if trimmed.isEmpty { return .number(0) }
          if let number = Double(trimmed) { return .number(number) }
        default: continue
        }
      }
      throw ExpressionEvaluationError("to-number: no argument converts to a number")
    case .color:
      for value in values {
        let result = try value.evaluate(context)
        if let color = result.color { return .color(color) }
        if let channels = result.numbers, channels.count == 3 || channels.count == 4 {
          return .color(
            Color(
              red: channels[0] / 255, green: channels[1] / 255, blue: channels[2] / 255,
              alpha: channels.count == 4 ? channels[3] : 1))
        }
      }
      throw ExpressionEvaluationError("to-color: no argument converts to a colour")
    case .array, .object:
      throw ExpressionEvaluationError("cannot convert to \(type.rawValue)")
    }
  }

  static func calculate(_ op: MathOperator, _ values: [Double]) throws(ExpressionEvaluationError) -> Double {
    switch op {
    case .add: return values.reduce(0, +)
    case .multiply: return values.reduce(1, *)
    case .subtract: return values.count == 1 ? -values[0] : values[0] - values[1]
    case .divide: return values[0] / values[1]
    case .remainder: return values[0].truncatingRemainder(dividingBy: values[1])
    case .power: return pow(values[0], values[1])
    case .sqrt: return values[0].squareRoot()
    case .abs: return Swift.abs(values[0])
    case .floor: return Foundation.floor(values[0])
    case .ceil: return Foundation.ceil(values[0])
    case .round: return values[0].rounded(.toNearestOrAwayFromZero)
    case .min: return values.min() ?? .infinity
    case .max: return values.max() ?? -.infinity
    case .ln: return Foundation.log(values[0])
    case .log10: return Foundation.log10(values[0])
    case .log2: return Foundation.log2(values[0])
    case .sin: return Foundation.sin(values[0])
    case .cos: return Foundation.cos(values[0])
    case .tan: return Foundation.tan(values[0])
    case .asin: return Foundation.asin(values[0])
    case .acos: return Foundation.acos(values[0])
    case .atan: return Foundation.atan(values[0])
    case .e: return M_E
    case .pi: return Double.pi
    case .ln2: return M_LN2
    }
  }

  /// The interpolation factor 0…1 of `input` between `lower` and `upper`.
  package static func interpolationFactor(_ kind: Interpolation, input: Double, lower: Double, upper: Double) -> Double
  {
    let difference = upper - lower
    guard difference != 0 else { return 0 }
    let progress = input - lower
    switch kind {
    case .linear:
      return progress / difference
    case .exponential(let base):
      return base == 1 ? progress / difference : (pow(base, progress) - 1) / (pow(base, difference) - 1)
    case .cubicBezier(let x1, let y1, let x2, let y2):
      return CameraAnimation.cubicBezier(progress / difference, x1, y1, x2, y2)
    }
  }

  static func interpolate(
    _ kind: Interpolation, input: Double, stops: [(input: Double, output: Expression)], context: EvaluationContext
  ) throws(ExpressionEvaluationError) -> StyleValue {
    guard let first = stops.first, let last = stops.last else { return .null }
    if input <= first.input || input.isNaN { return try first.output.evaluate(context) }
    if input >= last.input { return try last.output.evaluate(context) }
    var index = 0
    while index + 1 < stops.count && stops[index + 1].input <= input { index += 1 }
    let lower = stops[index]
    let upper = stops[index + 1]
    let t = interpolationFactor(kind, input: input, lower: lower.input, upper: upper.input)
    return try blend(try lower.output.evaluate(context), try upper.output.evaluate(context), t)
  }

  /// Blends two values: numbers linearly, colours in premultiplied RGBA (as MapLibre does),
  /// arrays of numbers element by element.
  package static func blend(_ a: StyleValue, _ b: StyleValue, _ t: Double) throws(ExpressionEvaluationError)
    -> StyleValue
  {
    switch (a, b) {
    case (.number(let x), .number(let y)):
      return .number(x + (y - x) * t)
    case _ where a.color != nil && b.color != nil:
      let p = a.color!.premultiplied
      let q = b.color!.premultiplied
      let alpha = p.3 + (q.3 - p.3) * t
      guard alpha > 0 else { return .color(.transparent) }
      return .color(
        Color(
          red: (p.0 + (q.0 - p.0) * t) / alpha, green: (p.1 + (q.1 - p.1) * t) / alpha,
          blue: (p.2 + (q.2 - p.2) * t) / alpha,
          alpha: alpha))
    case (.array(let x), .array(let y)) where x.count == y.count:
      var result: [StyleValue] = []
      for (left, right) in zip(x, y) { result.append(try blend(left, right, t)) }
      return .array(result)
    default:
      throw ExpressionEvaluationError("interpolate: cannot blend \(a.typeName) and \(b.typeName)")
    }
  }
}
