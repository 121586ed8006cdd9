import TesseraNumbers

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
  /// The property naming each source's features instead of their ids (`promoteId`), by source
  /// and then source layer ("" for every layer).
  public var promotedIDs: [String: [String: String]] = [:]

  public init() {}

  public var isEmpty: Bool { states.isEmpty }

  /// The property that names the features of `source` (and `sourceLayer`), if promoted.
  public func idProperty(source: String, sourceLayer: String?) -> String? {
    guard let keys = promotedIDs[source] else { return nil }
    return keys[sourceLayer ?? ""] ?? keys[""]
  }

  /// A feature's name as states know it: the text of its id or promoted property (whole
  /// numbers without a fraction).
  public static func name(of value: StyleValue) -> String? {
    switch value {
    case .string(let text): return text
    case .number(let number):
      if number == number.rounded(), abs(number) < 1e15 { return String(Int64(clamping: number)) }
      return number.isFinite ? String(number) : nil
    case .bool(let flag): return String(flag)
    default: return nil
    }
  }

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
