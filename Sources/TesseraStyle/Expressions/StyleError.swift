import TesseraNumbers

/// A problem in a style, named by where it is (`layers[3].paint.line-width`).
public struct StyleError: Error, Equatable, CustomStringConvertible {
  /// The file, or "style".
  public var source: String
  /// The path of the field in the style.
  public var path: String
  public var message: String

  public init(source: String = "style", path: String, message: String) {
    self.source = source
    self.path = path
    self.message = message
  }

  public var description: String { "\(source): \(path): \(message)" }
}
