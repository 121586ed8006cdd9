import Foundation
import TesseraNumbers

extension Scene {
  /// `path` made absolute against `directory` (absolute paths are kept), normalised.
  public static func absolutePath(_ path: String, against directory: String) -> String {
    resolve(path, against: directory)
  }

  /// `path` made absolute against `directory` (absolute paths are kept), normalised.
  static func resolve(_ path: String, against directory: String) -> String {
    let joined = path.hasPrefix("/") ? path : (directory.isEmpty ? path : directory + "/" + path)
    return URL(fileURLWithPath: joined).standardizedFileURL.path
  }
}
