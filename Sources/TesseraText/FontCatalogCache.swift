import Foundation
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
/// One file, `font-catalogs.bin` in Tessera's cache folder (`$XDG_CACHE_HOME/tessera` or
/// `~/.cache/tessera`), holds the catalogs of the last ``keptCatalogs`` folder lists, each with
/// every font file's path, size and modification time and the faces FreeType found in it, in a
/// compact binary form (read in well under a millisecond; as JSON it took 4–6 ms) sealed with a
/// checksum. A catalog is used only when its folders and files are exactly the ones found now (a
/// font added, removed, replaced or touched means a scan) and the FreeType loaded is the one
/// that found them; anything else in the file that is not as written (another version, a
/// damaged or foreign file) means a scan as well, and the file is written again. The folder must be this user's and not writable by others (``PrivateFolder``), the file
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

  static let fileName = "font-catalogs.bin"
  /// The file's format and what Tessera takes from FreeType for each face
  /// (``Engine/describe(_:)``: its first 64 faces, family, style, colour); raise it when either
  /// changes. The FreeType version is written beside it.
  static let version: UInt32 = 1
  /// The file's first bytes.
  static let magic = Array("TSFC".utf8)
  /// The largest file read, in bytes (a catalog of the Debian Noto fonts is about 30 KB).
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
    writeFile(Self.encode(Array(catalogs.suffix(Self.keptCatalogs))))
  }

  // MARK: The file

  struct StoredFile: Equatable {
    let stamp: FontFileStamp
    let faces: [DescribedFace]
  }

  struct StoredCatalog: Equatable {
    let folders: [String]
    let files: [StoredFile]
  }

  /// The file's bytes: the magic, the version and FreeType's, the catalogs (their folders, and
  /// each file's path, size, modification time and faces' family, style and colour), then an
  /// FNV-1a checksum of all before it. Numbers little-endian; strings UTF-8 after their length.
  static func encode(_ catalogs: [StoredCatalog]) -> [UInt8] {
    var bytes = magic
    ByteReader.append(version, to: &bytes)
    ByteReader.append(Engine.freeTypeVersion, to: &bytes)
    ByteReader.append(UInt32(catalogs.count), to: &bytes)
    for catalog in catalogs {
      ByteReader.append(UInt32(catalog.folders.count), to: &bytes)
      for folder in catalog.folders { ByteReader.append(folder, to: &bytes) }
      ByteReader.append(UInt32(catalog.files.count), to: &bytes)
      for file in catalog.files {
        ByteReader.append(file.stamp.path, to: &bytes)
        for value in [file.stamp.size, file.stamp.seconds, file.stamp.nanoseconds] {
          ByteReader.append(Int64(value), to: &bytes)
        }
        ByteReader.append(UInt32(file.faces.count), to: &bytes)
        for described in file.faces {
          ByteReader.append(described.face.family, to: &bytes)
          ByteReader.append(described.face.style, to: &bytes)
          bytes.append(described.isColor ? 1 : 0)
        }
      }
    }
    ByteReader.append(FNV1a.hash(bytes), to: &bytes)
    return bytes
  }

  /// The catalogs `bytes` hold; nil when they are not a whole file as written by this version
  /// of Tessera with this FreeType.
  static func decode(_ bytes: [UInt8]) -> [StoredCatalog]? {
    guard bytes.count >= magic.count + 8 else { return nil }
    var checked = ByteReader(Array(bytes.suffix(8)))
    guard checked.uint64() == FNV1a.hash(bytes.dropLast(8)) else { return nil }
    var reader = ByteReader(Array(bytes.dropLast(8)))
    guard reader.take(magic.count)?.elementsEqual(magic) == true, reader.uint32() == version,
      reader.string() == Engine.freeTypeVersion, let catalogCount = reader.uint32()
    else { return nil }
    var catalogs: [StoredCatalog] = []
    for _ in 0..<catalogCount {
      guard let folderCount = reader.uint32() else { return nil }
      var folders: [String] = []
      for _ in 0..<folderCount {
        guard let folder = reader.string() else { return nil }
        folders.append(folder)
      }
      guard let fileCount = reader.uint32() else { return nil }
      var files: [StoredFile] = []
      for _ in 0..<fileCount {
        guard let file = decodeFile(&reader) else { return nil }
        files.append(file)
      }
      catalogs.append(StoredCatalog(folders: folders, files: files))
    }
    return reader.isAtEnd ? catalogs : nil
  }

  /// One file's stamp and faces (at most 64, numbered from 0: ``Engine/describe(_:)``).
  private static func decodeFile(_ reader: inout ByteReader) -> StoredFile? {
    guard let path = reader.string(), let size = reader.int64(), let seconds = reader.int64(),
      let nanoseconds = reader.int64(), let faceCount = reader.uint32(), faceCount <= 64
    else { return nil }
    var faces: [DescribedFace] = []
    for index in 0..<Int(faceCount) {
      guard let family = reader.string(), let style = reader.string(), let color = reader.uint8(), color <= 1 else {
        return nil
      }
      let face = FontFace(path: path, index: index, family: family, style: style)
      faces.append(DescribedFace(face: face, isColor: color == 1))
    }
    let stamp = FontFileStamp(path: path, size: size, seconds: seconds, nanoseconds: nanoseconds)
    return StoredFile(stamp: stamp, faces: faces)
  }

  /// The catalogs in the file; none when there is no file or it is not one as written.
  func storedCatalogs() -> [StoredCatalog] {
    readFile().flatMap(Self.decode) ?? []
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
