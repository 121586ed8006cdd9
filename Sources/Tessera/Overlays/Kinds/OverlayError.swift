import TesseraJSON
import TesseraNumbers

/// An overlay that cannot be drawn or read: what it is (its title when it has one, or the
/// scene field describing it) and why.
public struct OverlayError: Error, Equatable, CustomStringConvertible {
  /// The overlay: its title in quotes, else its kind; for a scene field, the file and field.
  public let overlay: String
  public let reason: String
  /// The scene field the error is in (`scene.json: polylines[0].color`), when it came from one.
  public let field: String?

  /// An overlay (named by `overlay`) that cannot be drawn.
  public init(overlay: String, reason: String) {
    self.overlay = overlay
    self.reason = reason
    field = nil
  }

  /// A scene field (the file and the field's path, `field`) that cannot be read.
  public init(field: String, reason: String) {
    overlay = field
    self.reason = reason
    self.field = field
  }

  /// The scene field at `cursor` (and `suffix` below it, `.color` say) cannot be read.
  init(_ cursor: JSONCursor, _ suffix: String = "", reason: String) {
    self.init(field: "\(cursor.source): \(cursor.path)\(suffix)", reason: reason)
  }

  public var description: String { field.map { "\($0): \(reason)" } ?? "overlay \(overlay): \(reason)" }
}
