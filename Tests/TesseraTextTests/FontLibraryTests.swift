import Foundation
import TesseraText
import Testing

/// Local font folders: scanned on first use, not when a library is made.
@Suite struct FontLibraryTests {
  /// A library made before its folder holds a font still finds it: making one opens no file
  /// (a map whose labels come from glyph PBFs never pays for the scan).
  @Test func foldersAreScannedOnFirstUseNotWhenMade() throws {
    let source = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    guard FileManager.default.fileExists(atPath: source) else {
      print("skipped the lazy font scan test: \(source) is missing (Debian's fonts-dejavu-core)")
      return
    }
    let folder = NSTemporaryDirectory() + "tessera-lazy-fonts-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let library = FontLibrary(folders: [folder])
    try FileManager.default.copyItem(atPath: source, toPath: folder + "/DejaVuSans.ttf")
    #expect(library.faces.map(\.family) == ["DejaVu Sans"])
    #expect(library.face(named: "DejaVu Sans Book") == 0)
    // Scanned once: a font added later is not seen by the same library.
    try FileManager.default.copyItem(atPath: source, toPath: folder + "/Copy.ttf")
    #expect(library.faces.count == 1)
    #expect(FontLibrary(folders: [folder]).faces.count == 2)
  }

  /// A glyph's distance field is made once and kept: the same bytes again, and the same as a
  /// library keeping none makes; the kept fields stay within the library's budget.
  @Test func distanceFieldsAreKeptWithinTheirBudget() {
    let budget = 4096
    let library = FontLibrary(distanceFieldCacheBytes: budget)
    let shaping = GlyphStore(loader: nil, fonts: library).shape(
      StyledText(sections: [TextSection(text: "Quartz glyphs jump vexed")]), fontStack: ["Noto Sans Regular"],
      options: ShapingOptions(anchor: .topLeft))
    guard !shaping.glyphs.isEmpty else {
      print("skipped the distance field cache test: no font has Latin letters (Debian's fonts-noto-core)")
      return
    }
    let keys = shaping.glyphs.map(\.glyph)
    let first = keys.map { library.glyph($0)?.bitmap }
    #expect(first.allSatisfy { $0 != nil })
    #expect(library.distanceFieldCacheBytesUsed > 0)
    #expect(library.distanceFieldCacheBytesUsed <= budget)
    #expect(keys.map { library.glyph($0)?.bitmap } == first)
    let keepsNone = FontLibrary(distanceFieldCacheBytes: 0)
    #expect(keys.map { keepsNone.glyph($0)?.bitmap } == first)
    #expect(keepsNone.distanceFieldCacheBytesUsed == 0)
  }
}
