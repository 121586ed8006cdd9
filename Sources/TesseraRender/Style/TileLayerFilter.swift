import TesseraData
import TesseraNumbers
import TesseraStyle

/// A layer's filter prepared for the features of one tile layer at one zoom.
///
/// Most filters test attributes one at a time (`["==", ["get", "class"], "park"]`, legacy
/// `["in", "class", …]`, `["<=", ["get", "rank"], 4]`) joined by `all`, `any` and `!`. Each
/// such test reads one attribute, so its outcome is a function of that attribute's value: the
/// tile layer stores every value once in its table, so the test is evaluated (by the style's
/// own interpreter) at most once per distinct value and then read back by the value's index
/// from the feature's tags, with no string comparison or value boxing per feature. Tests of the
/// geometry type are kept per type; tests that read several attributes, the id or the geometry
/// make the whole filter fall back to the interpreter per feature. Outcomes, short-circuits and
/// failures (a test that does not give a boolean rejects the feature) are the interpreter's.
struct TileLayerFilter {
  /// What a test gave for a feature.
  private enum Outcome: UInt8 {
    case unknown, accepted, rejected, failed
  }

  private indirect enum Node {
    case fixed(Outcome)
    case test(Int)
    case all([Node])
    case any([Node])
    case not(Node)
  }

  /// A test of one attribute (or of the geometry type when `key` is nil), with the outcomes
  /// found so far by value index (the last slot: the attribute is missing) or by geometry type.
  private struct Test {
    let expression: Expression
    let key: String?
    /// The key's index in the tile layer's key table (nil: no feature has the attribute).
    let keyIndex: UInt32?
    var outcomes: [Outcome]
  }

  private let layer: VectorTileLayer
  private let zoom: Double
  /// nil: no filter, every feature passes.
  private let filter: Expression?
  /// nil with a filter: the interpreter decides per feature.
  private let root: Node?
  private var tests: [Test] = []
  /// What the features answer to `is-supported-script` (see ``StyleFeature/shapesComplexScripts``).
  private let shapesComplexScripts: Bool

  init(_ filter: Expression?, layer: VectorTileLayer, zoom: Double, shapesComplexScripts: Bool = true) {
    self.layer = layer
    self.zoom = zoom
    self.shapesComplexScripts = shapesComplexScripts
    self.filter = filter
    guard let filter else {
      root = nil
      return
    }
    var tests: [Test] = []
    root = TileLayerFilter.compile(filter, layer: layer, zoom: zoom, tests: &tests)
    self.tests = tests
  }

  /// Whether the filter is decided by remembered outcomes (false: by the interpreter per feature).
  var isPrepared: Bool { filter == nil || root != nil }

  /// Whether the filter passes the feature at `index` (`feature` is the same feature as the
  /// interpreter sees it, used when the filter is not prepared).
  mutating func accepts(_ index: Int, _ feature: TileFeature) -> Bool {
    guard let filter else { return true }
    guard let root else {
      return (try? filter.evaluate(EvaluationContext(zoom: zoom, feature: feature))) == .bool(true)
    }
    return outcome(root, index) == .accepted
  }

  private mutating func outcome(_ node: Node, _ index: Int) -> Outcome {
    switch node {
    case .fixed(let outcome): return outcome
    case .test(let test): return outcome(ofTest: test, index)
    case .all(let children):
      for child in children {
        let result = outcome(child, index)
        if result != .accepted { return result }
      }
      return .accepted
    case .any(let children):
      for child in children {
        let result = outcome(child, index)
        if result != .rejected { return result }
      }
      return .rejected
    case .not(let child):
      switch outcome(child, index) {
      case .accepted: return .rejected
      case .rejected: return .accepted
      default: return .failed
      }
    }
  }

  private mutating func outcome(ofTest number: Int, _ index: Int) -> Outcome {
    let slot: Int
    var value: FeatureValue?
    if tests[number].key == nil {
      slot = Int(layer.features[index].type.rawValue)
    } else if let keyIndex = tests[number].keyIndex,
      let valueIndex = layer.valueIndex(ofFeatureAt: index, key: keyIndex)
    {
      slot = valueIndex
      value = layer.values[valueIndex]
    } else {
      slot = layer.values.count
    }
    let known = tests[number].outcomes[slot]
    if known != .unknown { return known }
    let probe = ProbeFeature(
      key: tests[number].key, value: value.map(TileFeature.styleValue),
      geometryTypeName: layer.features[index].type.styleName, shapesComplexScripts: shapesComplexScripts)
    let found = TileLayerFilter.evaluate(tests[number].expression, zoom: zoom, feature: probe)
    tests[number].outcomes[slot] = found
    return found
  }

  private static func evaluate(_ expression: Expression, zoom: Double, feature: (any StyleFeature)?) -> Outcome {
    switch try? expression.evaluate(EvaluationContext(zoom: zoom, feature: feature)) {
    case .bool(true)?: return .accepted
    case .bool(false)?: return .rejected
    default: return .failed
    }
  }

  /// The node for `expression`, nil when some part of it reads more than one thing of a
  /// feature and is not an `all`, `any` or `!` of parts that each read one.
  private static func compile(_ expression: Expression, layer: VectorTileLayer, zoom: Double, tests: inout [Test])
    -> Node?
  {
    switch expression.featureDependence {
    case .none:
      return .fixed(evaluate(expression, zoom: zoom, feature: nil))
    case .property(let key):
      let keyIndex = layer.keys.firstIndex(of: key).map { UInt32($0) }
      tests.append(
        Test(
          expression: expression, key: key, keyIndex: keyIndex,
          outcomes: [Outcome](repeating: .unknown, count: layer.values.count + 1)))
      return .test(tests.count - 1)
    case .geometryType:
      tests.append(
        Test(expression: expression, key: nil, keyIndex: nil, outcomes: [Outcome](repeating: .unknown, count: 4)))
      return .test(tests.count - 1)
    case .several:
      func children(_ parts: [Expression]) -> [Node]? {
        var nodes: [Node] = []
        for part in parts {
          guard let node = compile(part, layer: layer, zoom: zoom, tests: &tests) else { return nil }
          nodes.append(node)
        }
        return nodes
      }
      switch expression {
      case .all(let parts): return children(parts).map(Node.all)
      case .any(let parts): return children(parts).map(Node.any)
      case .not(let part): return compile(part, layer: layer, zoom: zoom, tests: &tests).map(Node.not)
      default: return nil
      }
    }
  }
}

/// A feature with one attribute (or none) and a geometry type: what a one-attribute test sees.
private struct ProbeFeature: StyleFeature {
  let key: String?
  let value: StyleValue?
  let geometryTypeName: String
  let shapesComplexScripts: Bool

  func property(_ name: String) -> StyleValue? { name == key ? value : nil }
  var properties: [String: StyleValue] {
    guard let key, let value else { return [:] }
    return [key: value]
  }
  var identifier: StyleValue? { nil }
}
