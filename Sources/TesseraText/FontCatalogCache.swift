import Foundation
import TesseraJSON
import TesseraNumbers

/// A font file as found: its path and what `stat` says of it (following links). A file that
/// cannot be read has size −1.
struct FontFileStamp: Sendable, Equatable {
  let path: String
  /// Bytes.
  let size: Int
  /// Modification time: seconds since 1970 and nanoseconds.
  let seconds: Int
  let nanoseconds: Int

  init(path: String, size: Int, seconds: Int, nanoseconds: Int) {
    self.path = path
    self.size = size
    self.seconds = seconds
    self.nanoseconds = nanoseconds
  }

  /// The stamp of `path` now.
  init(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else {
      self.init(path: path, size: -1, seconds: 0, nanoseconds: 0)
      return
    }
    self.init(
      path: path, size: Int(status.st_size), seconds: Int(status.st_mtim.tv_sec),
      nanoseconds: Int(status.st_mtim.tv_nsec))
  }
}

/// One face FreeType found in a font file, and whether it has colour glyphs.
struct DescribedFace: Sendable, Equatable {
  let face: FontFace
  let isColor: Bool
}

/// The faces found in font folders, kept on disk between processes: opening every system font
/// with FreeType takes 25–35 ms (three quarters of it the four Noto CJK collections), which
/// every one-shot render paid for its attribution line or labels of local fonts.
///
/// One file, `font-catalogs.json` in Tessera's cache folder (`$XDG_CACHE_HOME/tessera` or
/// `~/.cache/tessera`), holds the catalogs of the last ``keptCatalogs`` folder lists, each with
/// every font file's path, size and modification time and the faces FreeType found in it. A
/// catalog is used only when its folders and files are exactly the ones found now (a font added,
/// removed, replaced or touched means a scan); anything else in the file that is not as written
/// (another version, a damaged or foreign file) means a scan as well, and the file is written
/// again. The folder must be this user's and not writable by others (``PrivateFolder``), the file
/// a regular file of this user's of at most ``largestFile`` bytes, read whole; it is written
/// under a temporary name and renamed into place, so processes sharing it never read half a file.
/// Nothing here fails a render.
package struct FontCatalogCache: Sendable {
  /// The cache folder.
  package let folder: String

  /// The cache in `folder` (made when first written, with the folders above it).
  package init(folder: String) {
    self.folder = folder
  }

  static let fileName = "font-catalogs.json"
  /// The file's format and what Tessera takes from FreeType for each face
  /// (``Engine/describe(_:)``: its first 64 faces, family, style, colour); raise it when either
  /// changes. The FreeType version is written beside it.
  static let version = 1.0
  /// The largest file read, in bytes (a catalog of the Debian Noto fonts is about 60 KB).
  static let largestFile = 8 << 20
  /// The most folder lists kept.
  static let keptCatalogs = 8

  /// Tessera's cache folder in `environment`: `$XDG_CACHE_HOME/tessera` or `~/.cache/tessera`;
  /// nil when neither is an absolute path.
  static func userFolder(environment: [String: String]) -> String? {
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/tessera" }
    if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/tessera" }
    return nil
  }

  /// The cache of this process's user, if a folder can be named.
  package static let user: FontCatalogCache? = userFolder(environment: ProcessInfo.processInfo.environment).map {
    FontCatalogCache(folder: $0)
  }

  /// The faces of every file in `files` (in order) when the cache holds a catalog of exactly
  /// `folders` and `files`; nil otherwise.
  func described(folders: [String], files: [FontFileStamp]) -> [[DescribedFace]]? {
    for catalog in storedCatalogs() where catalog.folders == folders {
      return catalog.files.map(\.stamp) == files ? catalog.files.map(\.faces) : nil
    }
    return nil
  }

  /// Keeps the catalog of `folders`: `files` and the faces of each, replacing the one kept for
  /// those folders; the oldest beyond ``keptCatalogs`` go.
  func store(folders: [String], files: [FontFileStamp], faces: [[DescribedFace]]) {
    guard files.count == faces.count else { return }
    var catalogs = storedCatalogs().filter { $0.folders != folders }
    catalogs.append(StoredCatalog(folders: folders, files: zip(files, faces).map { StoredFile(stamp: $0, faces: $1) }))
    let kept = catalogs.suffix(Self.keptCatalogs).map(\.json)
    let document: JSONValue = .object(
      JSONObject([
        ("version", .number(Self.version)), ("freetype", .string(Engine.freeTypeVersion)), ("catalogs", .array(kept)),
      ]))
    writeFile(Array(document.serialized().utf8))
  }

  // MARK: The file

  struct StoredFile {
    let stamp: FontFileStamp
    let faces: [DescribedFace]
  }

  struct StoredCatalog {
    let folders: [String]
    let files: [StoredFile]

    var json: JSONValue {
      .object(
        JSONObject([
          ("folders", .array(folders.map { .string($0) })),
          (
            "files",
            .array(
              files.map { file in
                .object(
                  JSONObject([
                    ("path", .string(file.stamp.path)), ("size", .number(Double(file.stamp.size))),
                    ("seconds", .number(Double(file.stamp.seconds))),
                    ("nanoseconds", .number(Double(file.stamp.nanoseconds))),
                    (
                      "faces",
                      .array(
                        file.faces.map { described in
                          .object(
                            JSONObject([
                              ("index", .number(Double(described.face.index))),
                              ("family", .string(described.face.family)), ("style", .string(described.face.style)),
                              ("color", .bool(described.isColor)),
                            ]))
                        })
                    ),
                  ]))
              })
          ),
        ]))
    }

    /// The catalog `value` holds, or nil when it is not one as written.
    init?(_ value: JSONValue) {
      guard let folders = value["folders"]?.array?.compactMap(\.string), let files = value["files"]?.array,
        folders.count == value["folders"]?.array?.count
      else { return nil }
      var stored: [StoredFile] = []
      for file in files {
        guard let path = file["path"]?.string, let size = Self.integer(file["size"]),
          let seconds = Self.integer(file["seconds"]), let nanoseconds = Self.integer(file["nanoseconds"]),
          let faces = file["faces"]?.array
        else { return nil }
        var described: [DescribedFace] = []
        for face in faces {
          // A file's faces are numbered from 0 in order, at most 64 (``Engine/describe(_:)``).
          guard let index = Self.integer(face["index"]), index == described.count, index < 64,
            let family = face["family"]?.string,
            let style = face["style"]?.string, let isColor = face["color"]?.bool
          else { return nil }
          described.append(
            DescribedFace(face: FontFace(path: path, index: index, family: family, style: style), isColor: isColor))
        }
        stored.append(
          StoredFile(
            stamp: FontFileStamp(path: path, size: size, seconds: seconds, nanoseconds: nanoseconds),
            faces: described))
      }
      self.init(folders: folders, files: stored)
    }

    init(folders: [String], files: [StoredFile]) {
      self.folders = folders
      self.files = files
    }

    /// A whole number of at most 2^53 in magnitude, else nil.
    static func integer(_ value: JSONValue?) -> Int? {
      guard let number = value?.number, number.rounded() == number, abs(number) <= 9_007_199_254_740_992 else {
        return nil
      }
      return Int(clamping: number)
    }
  }

  /// The catalogs in the file; none when there is no file or it is not one as written.
  func storedCatalogs() -> [StoredCatalog] {
    guard let bytes = readFile(), let document = try? JSONParser.parse(bytes),
      document["version"]?.number == Self.version, document["freetype"]?.string == Engine.freeTypeVersion,
      let catalogs = document["catalogs"]?.array
    else { return [] }
    let stored = catalogs.compactMap(StoredCatalog.init)
    return stored.count == catalogs.count ? stored : []
  }

  /// The file's bytes, when it is a regular file of this user's of at most ``largestFile`` bytes.
  private func readFile() -> [UInt8]? {
    guard let directory = PrivateFolder.descriptor(folder) else { return nil }
    defer { close(directory) }
    return PrivateFolder.contents(of: Self.fileName, in: directory, atMost: Self.largestFile)
  }

  /// Replaces the file with `bytes`: written under a temporary name, then renamed.
  private func writeFile(_ bytes: [UInt8]) {
    guard bytes.count <= Self.largestFile else { return }
    guard let directory = PrivateFolder.descriptor(folder, makingParents: true) else { return }
    defer { close(directory) }
    // Temporary files an interrupted process left go (the listing removes them).
    _ = PrivateFolder.entriesOldestFirst(
      in: directory, suffix: Self.fileName, removingTemporaryFilesOlderThan: DistanceFieldFiles.abandonedAfter)
    let temporary = ".\(Self.fileName).\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
    _ = PrivateFolder.replace(Self.fileName, in: directory, with: bytes, temporary: temporary)
  }
}
