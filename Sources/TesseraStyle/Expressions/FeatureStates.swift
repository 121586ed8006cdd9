/// The state the application gives features at run time (MapLibre's feature state: a hovered
/// flag, a live value), read by `["feature-state", key]` in paint properties. Features are
/// named by source, source layer (vector sources) and id (a number's text, e.g. "42").
public struct FeatureStates: Sendable, Equatable {
  /// Which feature a state belongs to.
  public struct Key: Sendable, Hashable {
    public let source: String
    public let sourceLayer: String?
    public let id: String

    public init(source: String, sourceLayer: String? = nil, id: String) {
      self.source = source
      self.sourceLayer = sourceLayer
      self.id = id
    }
  }

  private var states: [Key: [String: StyleValue]] = [:]

  public init() {}

  public var isEmpty: Bool { states.isEmpty }

  /// The state of a feature (empty when it has none).
  public func state(of key: Key) -> [String: StyleValue] { states[key] ?? [:] }

  /// Merges `values` into a feature's state (keys not named keep their values).
  public mutating func set(_ values: [String: StyleValue], for key: Key) {
    states[key, default: [:]].merge(values) { _, new in new }
  }

  /// Removes one value of a feature's state, or all of it when `name` is nil.
  public mutating func remove(_ name: String? = nil, for key: Key) {
    guard let name else {
      states[key] = nil
      return
    }
    states[key]?[name] = nil
    if states[key]?.isEmpty == true { states[key] = nil }
  }

  /// Whether any feature of `source` (and `sourceLayer`) has a state.
  public func hasStates(source: String, sourceLayer: String?) -> Bool {
    states.keys.contains { $0.source == source && $0.sourceLayer == sourceLayer }
  }
}
