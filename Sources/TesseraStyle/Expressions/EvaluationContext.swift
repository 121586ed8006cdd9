import TesseraGeo
import TesseraNumbers

/// A feature as style expressions see it.
public protocol StyleFeature {
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
}

extension StyleFeature {
  public var worldGeometry: [[WorldPoint]]? { nil }
  public var state: [String: StyleValue] { [:] }
}

/// What an expression is evaluated against: the zoom, a feature, and `let` bindings.
public struct EvaluationContext {
  /// Style zoom (camera zoom − 1), or nil where zoom is not available.
  public var zoom: Double?
  public var feature: (any StyleFeature)?
  /// The density a heatmap colour is evaluated at (`["heatmap-density"]`).
  public var heatmapDensity: Double?
  /// The position along a line a gradient is evaluated at (`["line-progress"]`).
  public var lineProgress: Double?
  var variables: [String: StyleValue] = [:]

  public init(zoom: Double? = nil, feature: (any StyleFeature)? = nil) {
    self.zoom = zoom
    self.feature = feature
  }
}

/// An expression that failed at evaluation time (a type mismatch, a missing value): the
/// property then takes its default, a filter rejects the feature (as in MapLibre).
public struct ExpressionEvaluationError: Error, Equatable, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
