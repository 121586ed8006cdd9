import TesseraNumbers

/// A compiled MapLibre style expression (style spec v8 expressions and converted legacy
/// functions and filters).
package indirect enum Expression: Sendable {
  case literal(StyleValue)
  /// `["get", key]` or `["get", key, object]`.
  case get(key: Expression, object: Expression?)
  /// `["has", key]` or `["has", key, object]`.
  case has(key: Expression, object: Expression?)
  /// `["at", index, array]`.
  case at(index: Expression, array: Expression)
  /// `["in", needle, haystack]` (haystack an array or a string).
  case contains(needle: Expression, haystack: Expression)
  /// `["index-of", needle, haystack]`.
  case indexOf(needle: Expression, haystack: Expression)
  /// `["length", array or string]`.
  case length(Expression)
  case zoom
  /// `["heatmap-density"]`: the kernel density a heatmap colours (0…1), in `heatmap-color`.
  case heatmapDensity
  /// `["line-progress"]`: how far along its line a point lies (0…1), in `line-gradient`.
  case lineProgress
  case geometryType
  /// `["within", GeoJSON]`: whether the feature lies inside the area.
  case within(WithinRegion)
  /// `["feature-state", key]`: a value of the feature's state (null when unset).
  case featureState(Expression)
  case featureID
  case properties
  /// A name bound by `let`.
  case variable(String)
  /// `["let", name, value, …, body]`.
  case bind([(name: String, value: Expression)], body: Expression)
  case not(Expression)
  case all([Expression])
  case any([Expression])
  case compare(ComparisonOperator, Expression, Expression)
  /// `["match", input, labels, output, …, fallback]`: each label set maps to an output index.
  case match(input: Expression, labels: [StyleValue: Int], outputs: [Expression], fallback: Expression)
  /// `["case", condition, output, …, fallback]`.
  case conditional([(condition: Expression, output: Expression)], fallback: Expression)
  case coalesce([Expression])
  /// `["step", input, base, stop, output, …]`.
  case step(input: Expression, base: Expression, stops: [(input: Double, output: Expression)])
  /// `["interpolate", kind, input, stop, output, …]`.
  case interpolate(Interpolation, input: Expression, stops: [(input: Double, output: Expression)])
  /// `to-number`, `to-string`, `to-boolean`, `to-color`: the first argument that converts.
  case coerce(ValueType, [Expression])
  /// `number`, `string`, `boolean`, `array`, `object`: the first argument of that type.
  case assert(ValueType, [Expression])
  /// `["typeof", value]`.
  case typeOf(Expression)
  /// `rgb` (3 channels) and `rgba` (4).
  case color([Expression])
  case concat([Expression])
  case upcase(Expression)
  case downcase(Expression)
  /// `format`: sections of text (or images) with their own `font-scale`, `text-font` and
  /// `text-color`; evaluates to a formatted value (``StyleValue/formattedSections``).
  case format([(content: Expression, options: [String: Expression])])
  /// `is-supported-script`: whether the text's scripts can be drawn: always with local fonts;
  /// with glyph PBFs, as MapLibre Native answers (not the scripts of
  /// ``needsComplexShaping(_:)``).
  case isSupportedScript(Expression)
  case math(MathOperator, [Expression])

  /// The comparison operators.
  package enum ComparisonOperator: String, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
  }

  /// Types of coercions and assertions.
  package enum ValueType: String, Sendable {
    case number, string, boolean, color, array, object
  }

  /// How `interpolate` blends between stops.
  package enum Interpolation: Sendable, Equatable {
    case linear
    case exponential(base: Double)
    case cubicBezier(Double, Double, Double, Double)
  }

  /// Arithmetic and other numeric operators.
  package enum MathOperator: String, Sendable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
    case power = "^"
    case sqrt, abs, floor, ceil, round, min, max, ln, log10, log2, sin, cos, tan, asin, acos, atan
    case e, pi, ln2
  }
}

extension Expression {
  /// Whether the result is the same at every zoom.
  package var isZoomConstant: Bool { !contains { if case .zoom = $0 { return true } else { return false } } }

  /// Whether the result does not depend on a heatmap's density or a line's progress (values
  /// only the renderer supplies, so such expressions are never folded into constants).
  package var isDensityAndProgressConstant: Bool {
    !contains { node in
      switch node {
      case .heatmapDensity, .lineProgress: return true
      default: return false
      }
    }
  }

  /// Whether the result is the same for every feature.
  package var isFeatureConstant: Bool {
    !contains { node in
      switch node {
      case .get(_, nil), .has(_, nil), .geometryType, .featureID, .properties, .within, .featureState: return true
      default: return false
      }
    }
  }

  /// Whether the result depends on a feature's state.
  package var readsFeatureState: Bool {
    contains { if case .featureState = $0 { return true } else { return false } }
  }

  /// The constant value, when the expression is a literal.
  package var constantValue: StyleValue? {
    if case .literal(let value) = self { return value }
    return nil
  }

  /// Whether `predicate` holds for this node or any node below it.
  func contains(_ predicate: (Expression) -> Bool) -> Bool {
    if predicate(self) { return true }
    return children.contains { $0.contains(predicate) }
  }

  /// The direct subexpressions.
  var children: [Expression] {
    switch self {
    case .literal, .zoom, .heatmapDensity, .lineProgress, .geometryType, .featureID, .properties, .variable, .within:
      return []
    case .get(let key, let object), .has(let key, let object): return [key] + (object.map { [$0] } ?? [])
    case .at(let index, let array): return [index, array]
    case .contains(let needle, let haystack), .indexOf(let needle, let haystack): return [needle, haystack]
    case .format(let sections):
      return sections.flatMap { section in
        [section.content] + section.options.keys.sorted().map { section.options[$0]! }
      }
    case .isSupportedScript(let value): return [value]
    case .length(let value), .not(let value), .typeOf(let value), .upcase(let value), .downcase(let value),
      .featureState(let value):
      return [value]
    case .bind(let bindings, let body): return bindings.map(\.value) + [body]
    case .all(let values), .any(let values), .coalesce(let values), .coerce(_, let values), .assert(_, let values),
      .color(let values), .concat(let values), .math(_, let values):
      return values
    case .compare(_, let a, let b): return [a, b]
    case .match(let input, _, let outputs, let fallback): return [input] + outputs + [fallback]
    case .conditional(let branches, let fallback): return branches.flatMap { [$0.condition, $0.output] } + [fallback]
    case .step(let input, let base, let stops): return [input, base] + stops.map(\.output)
    case .interpolate(_, let input, let stops): return [input] + stops.map(\.output)
    }
  }
}

extension Expression {
  /// Whether a code point belongs to a script drawn from glyph PBFs only with shaping they
  /// cannot give (MapLibre's list: the Indic blocks and Sinhala, Tibetan, Myanmar, Khmer).
  package static func needsComplexShaping(_ codePoint: UInt32) -> Bool {
    (0x0900...0x0DFF).contains(codePoint) || (0x0F00...0x109F).contains(codePoint)
      || (0x1780...0x17FF).contains(codePoint)
  }
}
