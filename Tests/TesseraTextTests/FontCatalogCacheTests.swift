import Foundation
import TesseraNumbers
import Testing

@testable import TesseraText

/// Font catalogs kept on disk between processes: used only for exactly the files found now,
/// never trusted when damaged, never read from a folder others may write to.
@Suite struct FontCatalogCacheTests {
  static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

  /// A fresh folder of fonts (a copy of DejaVu Sans) and a fresh cache folder, removed after
  /// `body`; nil (and a printed reason) without the font.
  static func withFolders(_ name: String, _ body: (_ fonts: String, _ cache: FontCatalogCache) throws -> Void) throws {
    guard FileManager.default.fileExists(atPath: font) else {
      print("skipped the font catalog cache test '\(name)': \(font) is missing (Debian's fonts-dejavu-core)")
      return
    }
    let root = NSTemporaryDirectory() + "tessera-catalog-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: root)
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: root + "/fonts", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: font, toPath: root + "/fonts/DejaVuSans.ttf")
    try body(root + "/fonts", FontCatalogCache(folder: root + "/cache/tessera"))
  }

  /// The catalog's findings, comparable.
  static func summary(_ catalog: FontCatalog) -> [String] {
    catalog.faces.map { "\($0.path)#\($0.index) \($0.family)|\($0.style)" }
      + catalog.colorFaces.map { "colour \($0)" } + catalog.unreadable.map(\.description)
      + catalog.byName.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
  }

  /// Keeps `family` as what the cache says every face of `fonts` is called (the files as they
  /// are now), so that a catalog read from the cache can be told from one scanned.
  static func keepMarked(_ fonts: String, in cache: FontCatalogCache, family: String) {
    let files = FontFiles.paths(in: [fonts]).map(FontFileStamp.init(path:))
    let faces = files.map { file in
      [DescribedFace(face: FontFace(path: file.path, index: 0, family: family, style: "Book"), isColor: false)]
    }
    cache.store(folders: [fonts], files: files, faces: faces)
  }

  /// The system's fonts: the catalog scanned and kept, then read back, is the catalog a scan
  /// without a cache makes.
  @Test func aKeptCatalogIsTheScannedOne() throws {
    let root = NSTemporaryDirectory() + "tessera-catalog-system-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let cache = FontCatalogCache(folder: root + "/tessera")
    let scanned = Self.summary(FontCatalog(scanning: FontLibrary.systemFolders))
    let storing = Self.summary(FontCatalog(scanning: FontLibrary.systemFolders, cache: cache))
    #expect(FileManager.default.fileExists(atPath: root + "/tessera/" + FontCatalogCache.fileName))
    #expect(cache.storedCatalogs().count == 1)
    let kept = Self.summary(FontCatalog(scanning: FontLibrary.systemFolders, cache: cache))
    #expect(storing == scanned)
    #expect(kept == scanned)
  }

  /// A catalog kept for the same files is used; a file touched, added or removed means a scan.
  @Test func changedFilesAreScannedAgain() throws {
    try Self.withFolders("changes") { fonts, cache in
      #expect(FontCatalog(scanning: [fonts], cache: cache).faces.map(\.family) == ["DejaVu Sans"])
      Self.keepMarked(fonts, in: cache, family: "Kept")
      #expect(FontCatalog(scanning: [fonts], cache: cache).faces.map(\.family) == ["Kept"])
      // Touched: another modification time.
      let file = fonts + "/DejaVuSans.ttf"
      let longAgo = Date(timeIntervalSince1970: 1_000_000)
      try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: file)
      #expect(FontCatalog(scanning: [fonts], cache: cache).faces.map(\.family) == ["DejaVu Sans"])
      // Added.
      Self.keepMarked(fonts, in: cache, family: "Kept")
      try FileManager.default.copyItem(atPath: file, toPath: fonts + "/Copy.ttf")
      #expect(FontCatalog(scanning: [fonts], cache: cache).faces.map(\.family) == ["DejaVu Sans", "DejaVu Sans"])
      // Removed.
      Self.keepMarked(fonts, in: cache, family: "Kept")
      try FileManager.default.removeItem(atPath: fonts + "/Copy.ttf")
      #expect(FontCatalog(scanning: [fonts], cache: cache).faces.map(\.family) == ["DejaVu Sans"])
      // Other folders: a catalog of their own.
      #expect(FontCatalog(scanning: [fonts, fonts + "/none"], cache: cache).faces.map(\.family) == ["DejaVu Sans"])
    }
  }

  /// A catalog file's bytes for `fonts` (its one font file, as it is now) with `faces` faces of
  /// the family "Kept", sealed with a right checksum: trusted only when all else is as written.
  static func sealedCatalog(
    fonts: String, faces: UInt32 = 1, colour: UInt8 = 0, version: UInt32 = FontCatalogCache.version,
    freeType: String = Engine.freeTypeVersion
  ) -> [UInt8] {
    let stamp = FontFileStamp(path: fonts + "/DejaVuSans.ttf")
    var bytes = FontCatalogCache.magic
    ByteReader.append(version, to: &bytes)
    ByteReader.append(freeType, to: &bytes)
    ByteReader.append(UInt32(1), to: &bytes)
    ByteReader.append(UInt32(1), to: &bytes)
    ByteReader.append(fonts, to: &bytes)
    ByteReader.append(UInt32(1), to: &bytes)
    ByteReader.append(stamp.path, to: &bytes)
    for value in [stamp.size, stamp.seconds, stamp.nanoseconds] { ByteReader.append(Int64(value), to: &bytes) }
    ByteReader.append(faces, to: &bytes)
    for _ in 0..<faces {
      ByteReader.append("Kept", to: &bytes)
      ByteReader.append("Book", to: &bytes)
      bytes.append(colour)
    }
    ByteReader.append(FNV1a.hash(bytes), to: &bytes)
    return bytes
  }

  /// Damaged, foreign or out-of-range files are never trusted: the catalog is scanned, and the
  /// file written again.
  @Test func damagedFilesMeanAScan() throws {
    try Self.withFolders("damaged") { fonts, cache in
      let expected = Self.summary(FontCatalog(scanning: [fonts]))
      let path = cache.folder + "/" + FontCatalogCache.fileName
      // The sealed catalog as such is trusted (so the refusals below are the changes' doing).
      try FileManager.default.createDirectory(atPath: cache.folder, withIntermediateDirectories: true)
      try Data(Self.sealedCatalog(fonts: fonts)).write(to: URL(fileURLWithPath: path))
      #expect(FontCatalog(scanning: [fonts], cache: cache).faces.map(\.family) == ["Kept"])
      Self.keepMarked(fonts, in: cache, family: "Kept")
      let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      var damaged: [(String, [UInt8])] = [
        ("empty", []), ("text", Array("not a catalog".utf8)), ("half", Array(good.prefix(good.count / 2))),
        ("a byte more", good + [0]), ("65 faces", Self.sealedCatalog(fonts: fonts, faces: 65)),
        ("colour 2", Self.sealedCatalog(fonts: fonts, colour: 2)),
        ("version 2", Self.sealedCatalog(fonts: fonts, version: FontCatalogCache.version + 1)),
        ("another FreeType", Self.sealedCatalog(fonts: fonts, freeType: "0.0.0")),
      ]
      for offset in stride(from: 0, to: good.count, by: max(1, good.count / 64)) {
        var changed = good
        changed[offset] ^= 0x5A
        damaged.append(("byte \(offset) changed", changed))
      }
      for (what, bytes) in damaged {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(Self.summary(FontCatalog(scanning: [fonts], cache: cache)) == expected, "\(what)")
        #expect(cache.storedCatalogs().count == 1, "written again after \(what)")
      }
    }
  }

  /// A cache folder others may write to, a link in place of the file or a folder in its place:
  /// nothing is read from it, and the catalog is scanned.
  @Test func unsafePlacesAreNotRead() throws {
    try Self.withFolders("unsafe") { fonts, cache in
      let expected = Self.summary(FontCatalog(scanning: [fonts]))
      let path = cache.folder + "/" + FontCatalogCache.fileName
      Self.keepMarked(fonts, in: cache, family: "Kept")
      chmod(cache.folder, 0o777)
      #expect(cache.storedCatalogs().isEmpty)
      #expect(Self.summary(FontCatalog(scanning: [fonts], cache: cache)) == expected)
      chmod(cache.folder, 0o700)
      #expect(cache.storedCatalogs().count == 1)
      try FileManager.default.moveItem(atPath: path, toPath: path + ".real")
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path + ".real")
      #expect(cache.storedCatalogs().isEmpty)
      #expect(Self.summary(FontCatalog(scanning: [fonts], cache: cache)) == expected)
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      #expect(Self.summary(FontCatalog(scanning: [fonts], cache: cache)) == expected)
    }
  }

  /// At most ``FontCatalogCache/keptCatalogs`` folder lists are kept, the latest.
  @Test func theLatestCatalogsAreKept() throws {
    try Self.withFolders("kept") { fonts, cache in
      let lists = (0...FontCatalogCache.keptCatalogs).map { [fonts, fonts + "/missing-\($0)"] }
      for folders in lists { _ = FontCatalog(scanning: folders, cache: cache) }
      #expect(cache.storedCatalogs().map(\.folders) == Array(lists.dropFirst()))
    }
  }

  /// The cache folder: `$XDG_CACHE_HOME/tessera`, else `~/.cache/tessera`; relative paths are not used.
  @Test func theUsersFolderFollowsXDG() {
    #expect(FontCatalogCache.userFolder(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/tessera")
    #expect(FontCatalogCache.userFolder(environment: ["XDG_CACHE_HOME": "x", "HOME": "/h"]) == "/h/.cache/tessera")
    #expect(FontCatalogCache.userFolder(environment: ["HOME": "h"]) == nil)
    #expect(FontCatalogCache.userFolder(environment: [:]) == nil)
  }
}
