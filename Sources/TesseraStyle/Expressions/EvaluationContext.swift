import TesseraGeo
import TesseraNumbers

/// A feature as style expressions see it.
package protocol StyleFeature {
  /// The attribute `key`, or nil when the feature has none.
  func property(_ key: String) -> StyleValue?
  /// All attributes.
  var properties: [String: StyleValue] { get }
  /// "Point", "LineString", "Polygon" or "Unknown".
  var geometryTypeName: String { get }
  /// The feature id, or nil.
  var identifier: StyleValue? { get }
  /// The geometry in world units (0…1 across the Mercator world from its north-west corner):
  /// the points, lines or rings; nil when unknown (`within` is then false).
  var worldGeometry: [[WorldPoint]]? { get }
  /// The state the application set for the feature (see ``FeatureStates``).
  var state: [String: StyleValue] { get }
  /// Whether the feature's labels are shaped with local fonts (HarfBuzz: every script) rather
  /// than drawn from glyph PBFs as MapLibre Native draws them (no Indic, Tibetan, Myanmar or
  /// Khmer shaping): what `is-supported-script` answers from.
  var shapesComplexScripts: Bool { get }
}

extension StyleFeature {
  package var worldGeometry: [[WorldPoint]]? { nil }
  package var state: [String: StyleValue] { [:] }
  package var shapesComplexScripts: Bool { true }
}

/// What an expression is evaluated against: the zoom, a feature, and `let` bindings.
package struct EvaluationContext {
  /// Style zoom (camera zoom − 1), or nil where zoom is not available.
  package var zoom: Double?
  package var feature: (any StyleFeature)?
  /// The density a heatmap colour is evaluated at (`["heatmap-density"]`).
  package var heatmapDensity: Double?
  /// The position along a line a gradient is evaluated at (`["line-progress"]`).
  package var lineProgress: Double?
  var variables: [String: StyleValue] = [:]

  package init(zoom: Double? = nil, feature: (any StyleFeature)? = nil) {
    self.zoom = zoom
    self.feature = feature
  }
}

/// An expression that failed at evaluation time (a type mismatch, a missing value): the
/// property then takes its default, a filter rejects the feature (as in MapLibre).
package struct ExpressionEvaluationError: Error, Equatable, CustomStringConvertible {
  package let description: String
  init(_ description: String) { self.description = description }
}
