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
}
