import TesseraData
import TesseraJSON
import TesseraNumbers

/// A scene file that cannot be used, with the file and field named.
public enum SceneError: Error, Equatable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not well-formed JSON.
  case syntax(path: String, JSONSyntaxError)
  /// A field is missing or has the wrong type.
  case field(JSONFieldError)
  /// A field has a value outside what is allowed.
  case invalid(path: String, field: String, reason: String)
  /// A field names something the scene's reader may not reach, or cannot read.
  case access(path: String, ResourceAccessError)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): return "\(path): cannot read scene: \(reason)"
    case .syntax(let path, let error): return "\(path): invalid JSON at \(error)"
    case .field(let error): return error.description
    case .invalid(let path, let field, let reason): return "\(path): \(field): \(reason)"
    case .access(let path, let error): return "\(path): \(error)"
    }
  }
}
