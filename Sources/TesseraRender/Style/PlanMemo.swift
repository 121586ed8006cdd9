import Synchronization
import TesseraNumbers

/// What layer renderers work out from a layer and the style zoom alone (pipelines, constant
/// paint uniforms, how far a line's drawing reaches), kept between frames. A renderer's style
/// never changes, so frames at the same zoom (an orbit, a service answering one zoom, the tiles
/// of one level) plan without evaluating the same properties again. It holds the values of one
/// zoom at a time (a frame at another zoom starts afresh) and at most ``capacity`` of them.
final class PlanMemo: Sendable {
  /// A kept value: the layer (ids are unique in a style), the value's type and a variant that
  /// tells apart values of one type (for example the tile zoom of paint uniforms).
  struct Key: Hashable {
    let layer: String
    let kind: ObjectIdentifier
    let variant: Int
  }

  /// The most values kept; more start the memo afresh.
  static let capacity = 4096
  private let state = Mutex<(zoom: Double, values: [Key: any Sendable])>((.nan, [:]))

  /// The value of type `Value` kept for `layer` and `variant` at style zoom `zoom`, made by
  /// `make` (and kept) when there is none. `make` must depend on nothing but the layer, the
  /// zoom and what `variant` says.
  func value<Value: Sendable>(layer: String, variant: Int = 0, zoom: Double, _ make: () -> Value) -> Value {
    let key = Key(layer: layer, kind: ObjectIdentifier(Value.self), variant: variant)
    if let kept = state.withLock({ $0.zoom == zoom ? $0.values[key] : nil }) as? Value { return kept }
    let made = make()
    state.withLock { state in
      if state.zoom != zoom || state.values.count >= Self.capacity { state = (zoom, [:]) }
      state.values[key] = made
    }
    return made
  }

  /// How many values are kept (for tests).
  var count: Int { state.withLock { $0.values.count } }
}
