import Foundation
import TesseraNumbers

/// The font files of a set of folders: every `.ttf`, `.otf` and `.ttc` file (any case) in them
/// and their subfolders, by path.
///
/// The folders are walked with `readdir`, not Foundation's directory enumerator: on a system
/// with the Debian Noto fonts (311 files) the enumerator's casts and path strings took several
/// milliseconds of a one-shot render's font scan. Each folder is followed when it is itself a
/// link; links inside are listed as files when their names end in a font suffix but never
/// descended into (a link back up cannot make the walk go round), folders mounted inside are
/// walked as any other, at most ``deepestLevel`` levels down, and folders that cannot be read
/// are skipped.
enum FontFiles {
  /// The font files in `folders`, sorted by path (`folder/relative/path`).
  static func paths(in folders: [String]) -> [String] {
    var files: [String] = []
    for folder in folders { walk(folder, relative: "", into: &files, root: folder) }
    return files.sorted()
  }

  /// Whether `name` ends in `.ttf`, `.otf` or `.ttc`, in any case.
  static func hasFontSuffix(_ name: String) -> Bool {
    let bytes = Array(name.utf8.suffix(4))
    guard bytes.count == 4, bytes[0] == UInt8(ascii: ".") else { return false }
    let suffix = bytes[1...].map { $0 | 0x20 }  // ASCII letters to lower case
    return suffix == Array("ttf".utf8) || suffix == Array("otf".utf8) || suffix == Array("ttc".utf8)
  }

  /// How many folders deep a walk goes below each folder given: each level holds a descriptor.
  static let deepestLevel = 32

  /// Appends the font files under `root/relative` (`relative` empty for the root itself).
  private static func walk(_ path: String, relative: String, into files: inout [String], root: String, depth: Int = 0) {
    guard depth <= deepestLevel, let listing = opendir(path) else { return }
    defer { closedir(listing) }
    while let entry = readdir(listing) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      let itemPath = path + "/" + name
      let item = relative.isEmpty ? name : relative + "/" + name
      if isFolder(entry.pointee.d_type, itemPath) {
        walk(itemPath, relative: item, into: &files, root: root, depth: depth + 1)
      } else if hasFontSuffix(name) {
        files.append(root + "/" + item)
      }
    }
  }

  /// Whether a listed entry is a folder itself (not a link to one).
  private static func isFolder(_ type: UInt8, _ path: String) -> Bool {
    if type == UInt8(DT_DIR) { return true }
    guard type == UInt8(DT_UNKNOWN) else { return false }
    var status = stat()
    return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
  }
}
