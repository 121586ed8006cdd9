import Foundation
import Tessera
import TesseraJSON
import TesseraNumbers

/// The folders of a tileserver-gl config's `options.paths`, made absolute as tileserver-gl makes
/// them: `root` against the config file's folder, every other folder against `root`.
package struct TileserverGLPaths: Sendable, Equatable {
  package var root: String
  package var fonts: String
  package var sprites: String
  package var styles: String
  package var mbtiles: String
  package var pmtiles: String
  /// Marker icons; nil when the config names no folder.
  package var icons: String?
  /// Static files; nil when the config names no folder.
  package var files: String?

  /// The folders `paths` names (absent fields are the root itself), relative to `configFolder`.
  package init(_ paths: JSONCursor, configFolder: String, warnings: inout [String]) throws(JSONFieldError) {
    if paths.exists, paths.value?.object == nil { throw paths.mismatch("an object of folders") }
    let known: Set<String> = ["root", "fonts", "sprites", "styles", "mbtiles", "pmtiles", "icons", "files"]
    for key in try paths.isAbsentOrNull ? [] : paths.keys() where !known.contains(key) {
      warnings.append("\(paths[key].path): not a tileserver-gl folder Tessera knows; ignored")
    }
    let root = Scene.absolutePath(try Self.folder(paths["root"]) ?? "", against: configFolder)
    func under(_ key: String) throws(JSONFieldError) -> String? {
      try Self.folder(paths[key]).map { Scene.absolutePath($0, against: root) }
    }
    self.root = root
    fonts = try under("fonts") ?? root
    sprites = try under("sprites") ?? root
    styles = try under("styles") ?? root
    mbtiles = try under("mbtiles") ?? root
    pmtiles = try under("pmtiles") ?? root
    icons = try under("icons")
    files = try under("files")
  }

  /// A folder field's text: nil when absent, an error when it is not a string.
  private static func folder(_ field: JSONCursor) throws(JSONFieldError) -> String? {
    guard let text = try field.optionalString() else { return nil }
    guard !text.contains("\0") else { throw field.invalid("a folder path") }
    return text
  }
}
