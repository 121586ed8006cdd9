import TesseraNumbers

/// Where a ``JSONCursor`` stands in its document: the last step and the location it was taken
/// from. Reading a document makes a cursor for every field and element it looks at, and only
/// the ones that end in an error message need their path as text, so the text is made here,
/// on demand, instead of at every step.
final class JSONLocation: Sendable {
  /// One step from the enclosing value.
  enum Step: Sendable {
    /// A member of an object.
    case key(String)
    /// An element of an array.
    case index(Int)
    /// A whole path given as text (a value checked as the field holding it).
    case path(String)
  }

  let parent: JSONLocation?
  let step: Step

  init(parent: JSONLocation?, step: Step) {
    self.parent = parent
    self.step = step
  }

  /// The path from the root, e.g. `camera.zoom` or `layers[3].paint` (members joined by dots,
  /// elements in brackets).
  var path: String {
    let above = parent?.path ?? ""
    switch step {
    case .key(let key): return above.isEmpty ? key : "\(above).\(key)"
    case .index(let index): return "\(above)[\(index)]"
    case .path(let text): return text
    }
  }
}
