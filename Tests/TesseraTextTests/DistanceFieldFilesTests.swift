import Foundation
import TesseraData
import Testing

@testable import TesseraText

/// Distance fields kept on disk: a later library takes them from there, the same bytes as made
/// afresh; a changed font, a damaged file or a record that does not add up is never used.
@Suite struct DistanceFieldFilesTests {
  /// A folder of fonts (a copy of DejaVu Sans) and a cache folder, removed after `body`; the
  /// body is skipped (with a printed reason) without the font.
  static func withFolders(_ name: String, _ body: (_ fonts: String, _ cache: FontCatalogCache) throws -> Void) throws {
    try FontCatalogCacheTests.withFolders("fields-\(name)", body)
  }

  /// The glyph keys of `text` shaped in `library`'s DejaVu Sans.
  static func keys(_ text: String, in library: FontLibrary) -> [GlyphKey] {
    GlyphStore(loader: nil, fonts: library).shape(
      StyledText(sections: [TextSection(text: text)]), fontStack: ["DejaVu Sans Book"],
      options: ShapingOptions(anchor: .topLeft)
    ).glyphs.map(\.glyph)
  }

  static let text = "Quartz glyphs jump, vexed & 42"

  /// Fields made and kept by one library are read by the next: the same bytes as a library
  /// without a cache makes, and none is written twice.
  @Test func keptFieldsAreTheFieldsMade() throws {
    try Self.withFolders("kept") { fonts, cache in
      let fresh = FontLibrary(folders: [fonts], catalogCache: nil)
      let keys = Self.keys(Self.text, in: fresh)
      #expect(!keys.isEmpty)
      let expected = keys.map { fresh.glyph($0) }
      let first = FontLibrary(folders: [fonts], catalogCache: cache)
      #expect(keys.map { first.glyph($0) } == expected)
      let folder = cache.folder + "/distance-fields"
      let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".fields") }
      #expect(files.count == 1)
      let size = try FileManager.default.attributesOfItem(atPath: folder + "/" + files[0])[.size] as? Int
      let second = FontLibrary(folders: [fonts], catalogCache: cache)
      #expect(keys.map { second.glyph($0) } == expected)
      #expect(try FileManager.default.attributesOfItem(atPath: folder + "/" + files[0])[.size] as? Int == size)
    }
  }

  /// A field in the file is what a library gives (a stand-in shows it was read, not made); once
  /// the font file changes, its fields are made afresh.
  @Test func fieldsOfAChangedFontAreMadeAfresh() throws {
    try Self.withFolders("changed") { fonts, cache in
      let fresh = FontLibrary(folders: [fonts], catalogCache: nil)
      guard let key = Self.keys("Q", in: fresh).first, let real = fresh.glyph(key) else {
        Issue.record("DejaVu Sans has no Q")
        return
      }
      let face = fresh.faces[0]
      let files = DistanceFieldFiles(folder: cache.folder + "/distance-fields", freeType: Self.freeType)
      let standIn = RenderedGlyph(advance: 99, isInked: false, columns: 0, rows: 0, left: 0, top: 0, pixels: [])
      files.keep(standIn, glyph: key.id, of: face, stamp: FontFileStamp(path: face.path))
      let blank = SDFGlyph(id: key.id, bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: 99)
      #expect(FontLibrary(folders: [fonts], catalogCache: cache).glyph(key) == blank)
      let longAgo = Date(timeIntervalSince1970: 1_000_000)
      try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: face.path)
      #expect(FontLibrary(folders: [fonts], catalogCache: cache).glyph(key) == real)
    }
  }

  /// The rendering of an outcome (nil: none).
  static func rendered(_ outcome: Engine.Rendering) -> RenderedGlyph? {
    switch outcome {
    case .rendered(let rendered): rendered
    case .refused, .failed: nil
    }
  }

  /// A font file replaced after a library opened it: the renderings that library keeps are
  /// keyed by the file it read, so a library reading the new file makes its own.
  @Test func aFileReplacedAfterOpeningKeepsItsOwnRenderings() throws {
    let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    guard FileManager.default.fileExists(atPath: bold) else {
      print("skipped the replaced font test: \(bold) is missing (Debian's fonts-dejavu-core)")
      return
    }
    try Self.withFolders("replaced") { fonts, cache in
      let path = fonts + "/DejaVuSans.ttf"
      let before = FontLibrary(folders: [fonts], catalogCache: cache)
      let keys = Self.keys("Bold", in: before)
      // Opened (shaping opens the face), then replaced by another font under the same name.
      try FileManager.default.removeItem(atPath: path)
      try FileManager.default.copyItem(atPath: bold, toPath: path)
      for key in keys { _ = before.glyph(key) }
      let fresh = FontLibrary(folders: [fonts], catalogCache: nil)
      let after = FontLibrary(folders: [fonts], catalogCache: cache)
      #expect(keys.map { after.glyph($0) } == keys.map { fresh.glyph($0) })
    }
  }

  /// A file at a face's name that starts with another key, or has grown past the limit, is
  /// removed rather than appended to.
  @Test func foreignAndOversizedFilesAreRemoved() throws {
    try Self.withFolders("foreign") { fonts, cache in
      let face = FontLibrary(folders: [fonts], catalogCache: nil).faces[0]
      let stamp = FontFileStamp(path: face.path)
      let files = DistanceFieldFiles(folder: cache.folder + "/distance-fields", freeType: Self.freeType)
      let path = files.folder + "/" + DistanceFieldFiles.fileName(files.key(of: face, stamp: stamp))
      let blank = RenderedGlyph(advance: 5, isInked: false, columns: 0, rows: 0, left: 0, top: 0, pixels: [])
      files.keep(blank, glyph: 1, of: face, stamp: stamp)
      #expect(files.renderings(of: face, stamp: stamp).keys.sorted() == [1])
      var foreign: [UInt8] = [4, 0, 0, 0] + Array("else".utf8)
      foreign += [UInt8](repeating: 0, count: 16)
      try Data(foreign).write(to: URL(fileURLWithPath: path))
      files.keep(blank, glyph: 2, of: face, stamp: stamp)
      #expect(!FileManager.default.fileExists(atPath: path))
      files.keep(blank, glyph: 3, of: face, stamp: stamp)
      #expect(files.renderings(of: face, stamp: stamp).keys.sorted() == [3])
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: UInt64(DistanceFieldFiles.largestFile + 1))
      try handle.close()
      files.keep(blank, glyph: 4, of: face, stamp: stamp)
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }

  /// The FreeType version (what keys the files).
  static var freeType: String { Engine.freeTypeVersion }

  /// A file cut short anywhere, or with any one of its bytes changed, gives only renderings
  /// that are right (those of its whole records before the damage), never a wrong one.
  @Test func damagedFilesGiveOnlyRightFields() throws {
    try Self.withFolders("damaged") { fonts, cache in
      let fresh = FontLibrary(folders: [fonts], catalogCache: nil)
      let keys = Self.keys("Wave of glyphs", in: fresh)
      let library = FontLibrary(folders: [fonts], catalogCache: cache)
      for key in keys { _ = library.glyph(key) }
      let face = fresh.faces[0]
      let stamp = FontFileStamp(path: face.path)
      let files = DistanceFieldFiles(folder: cache.folder + "/distance-fields", freeType: Self.freeType)
      let path = files.folder + "/" + DistanceFieldFiles.fileName(files.key(of: face, stamp: stamp))
      let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      var engine = Engine()
      defer { engine.close() }
      let right = Dictionary(
        keys.map { ($0.id, Self.rendered(engine.render(face, glyph: $0.id))) }, uniquingKeysWith: { first, _ in first })
      #expect(files.renderings(of: face, stamp: stamp) == right)
      func check(_ bytes: [UInt8], _ what: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for (glyph, rendered) in files.renderings(of: face, stamp: stamp) {
          #expect(right[glyph] == .some(rendered), "\(what): glyph \(glyph)")
        }
      }
      for length in stride(from: 0, to: whole.count, by: max(1, whole.count / 300)) {
        try check(Array(whole.prefix(length)), "cut at \(length)")
      }
      for offset in stride(from: 0, to: whole.count, by: max(1, whole.count / 300)) {
        var changed = whole
        changed[offset] ^= 0x5A
        try check(changed, "byte \(offset) changed")
      }
    }
  }

  /// Records whose sizes do not agree with their pixels, or that run on, are refused.
  @Test func recordsThatDoNotAddUpAreRefused() {
    let rendered = RenderedGlyph(
      advance: 5.5, isInked: true, columns: 7, rows: 8, left: -1, top: 20, pixels: [UInt8](repeating: 9, count: 56))
    let good = DistanceFieldFiles.encode(rendered, glyph: 7)
    #expect(DistanceFieldFiles.decode(good).map { $0.1 } == .some(rendered))
    #expect(DistanceFieldFiles.decode(DistanceFieldFiles.encode(nil, glyph: 3)).map { $0.0 } == 3)
    #expect(DistanceFieldFiles.decode(Array(good.dropLast())) == nil)
    #expect(DistanceFieldFiles.decode(good + [0]) == nil)
    #expect(DistanceFieldFiles.decode(DistanceFieldFiles.encode(nil, glyph: 3) + [1]) == nil)
    // Layout: glyph 0–3, present 4, advance 5–12, inked 13, columns 14–17, rows 18–21.
    func changed(_ index: Int, _ value: UInt8) -> [UInt8] {
      var bytes = good
      bytes[index] = value
      return bytes
    }
    #expect(DistanceFieldFiles.decode(changed(4, 2)) == nil)
    #expect(
      DistanceFieldFiles.decode(changed(12, 0x7F).enumerated().map { $0.offset == 11 ? 0xF0 : $0.element }) == nil)
    #expect(DistanceFieldFiles.decode(changed(13, 2)) == nil)
    #expect(DistanceFieldFiles.decode(changed(13, 0)) == nil)  // uninked, yet with pixels
    #expect(DistanceFieldFiles.decode(changed(14, 8)) == nil)  // 8 × 8 with 56 pixels
    #expect(DistanceFieldFiles.decode(changed(17, 0xFF)) == nil)  // negative columns
    #expect(DistanceFieldFiles.decode(changed(19, 0x10)) == nil)  // rows beyond the largest side
  }

  /// At most ``DistanceFieldFiles/capacity`` files are kept.
  @Test func atMostCapacityFilesAreKept() throws {
    let folder = NSTemporaryDirectory() + "tessera-fields-capacity-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let files = DistanceFieldFiles(folder: folder + "/distance-fields", freeType: "test")
    let face = FontFace(path: "/fonts/a.ttf", index: 0, family: "A", style: "Regular")
    for size in 0...(DistanceFieldFiles.capacity + 4) {
      files.keep(nil, glyph: 1, of: face, stamp: FontFileStamp(path: face.path, size: size, seconds: 0, nanoseconds: 0))
    }
    let kept = try FileManager.default.contentsOfDirectory(atPath: files.folder)
    #expect(kept.filter { $0.hasSuffix(DistanceFieldFiles.suffix) }.count == DistanceFieldFiles.capacity)
    #expect(kept.allSatisfy { $0.hasSuffix(DistanceFieldFiles.suffix) })
    let last = FontFileStamp(path: face.path, size: DistanceFieldFiles.capacity + 4, seconds: 0, nanoseconds: 0)
    #expect(files.renderings(of: face, stamp: last).keys.sorted() == [1])
  }
}
