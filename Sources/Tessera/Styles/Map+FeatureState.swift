import TesseraJSON
import TesseraNumbers
import TesseraRender
import TesseraStyle

extension Map {
  /// Merges `values` into the state of a feature (MapLibre's `setFeatureState`): the feature
  /// `id` (a number's text) of style source `source` (and, for vector sources, `sourceLayer`).
  /// Paint reading `["feature-state", key]` shows it from the next frame. States belong to the
  /// current style; a new style starts without them.
  public func setFeatureState(_ values: [String: StyleValue], source: String, sourceLayer: String? = nil, id: String) {
    styleRenderer?.setFeatureState(values, for: FeatureStates.Key(source: source, sourceLayer: sourceLayer, id: id))
  }

  /// Removes the value `key` of a feature's state, or all its values when `key` is nil.
  public func removeFeatureState(source: String, sourceLayer: String? = nil, id: String, key: String? = nil) {
    styleRenderer?.removeFeatureState(key, for: FeatureStates.Key(source: source, sourceLayer: sourceLayer, id: id))
  }

  /// The features' states of the current style.
  public var featureStates: FeatureStates { styleRenderer?.featureStates ?? FeatureStates() }
}

/// One `featureStates` entry of a scene: which feature, and its state.
public struct SceneFeatureState: Sendable {
  public let key: FeatureStates.Key
  public let values: [String: StyleValue]

  /// Reads `{"source", "sourceLayer"?, "id", "state": {…}}`; the id is a string or a whole
  /// number.
  static func parse(_ cursor: JSONCursor) throws -> SceneFeatureState {
    let known: Set<String> = ["source", "sourceLayer", "id", "state"]
    if let unknown = try cursor.keys().first(where: { !known.contains($0) }) {
      throw cursor[unknown].invalid("unknown field; expected source, sourceLayer, id and state")
    }
    let id: String
    switch cursor["id"].value {
    case .string(let text)?: id = text
    case .number(let number)? where number == number.rounded() && abs(number) < 1e15:
      id = String(Int64(clamping: number))
    default: throw cursor["id"].mismatch("a string or a whole number")
    }
    guard case .object(let state)? = cursor["state"].value else { throw cursor["state"].mismatch("an object") }
    return SceneFeatureState(
      key: FeatureStates.Key(
        source: try cursor["source"].string(), sourceLayer: try cursor["sourceLayer"].optionalString(), id: id),
      values: Dictionary(state.pairs.map { ($0.key, StyleValue(json: $0.value)) }, uniquingKeysWith: { _, new in new }))
  }
}
