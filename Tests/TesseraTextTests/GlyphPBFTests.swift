import Foundation
import TesseraData
import TesseraTestSupport
import TesseraText
import Testing

/// Glyph PBFs decoded and laid out as MapLibre Native lays them out.
@Suite struct GlyphPBFTests {
  static var fontFolder: String? {
    SharedData.root.map { $0 + "/conformance/maplibre-symbol-tests/glyphs/Open Sans Semibold,Arial Unicode MS Bold" }
  }

  static func store() -> GlyphStore? {
    guard let folder = fontFolder, FileManager.default.fileExists(atPath: folder + "/0-255.pbf") else { return nil }
    let template = GlyphURLTemplate(
      template: folder.replacingOccurrences(of: "Open Sans Semibold,Arial Unicode MS Bold", with: "{fontstack}")
        + "/{range}.pbf")
    return GlyphStore(loader: { stack, start throws(GlyphError) in
      try template.load(fontStack: stack, rangeStart: start).map {
        ($0, template.url(fontStack: stack, rangeStart: start))
      }
    })
  }

  static let stack = ["Open Sans Semibold", "Arial Unicode MS Bold"]

  @Test func decodesTheLatinRange() throws {
    guard let folder = GlyphPBFTests.fontFolder, let data = FileManager.default.contents(atPath: folder + "/0-255.pbf")
    else {
      print("skipped glyph PBF tests: \(SharedData.skipReason)")
      return
    }
    let glyphs = try GlyphRangeDecoder.decode(Array(data), source: "0-255.pbf")
    let a = try #require(glyphs[65])
    #expect(a.width > 10 && a.width < 20)
    #expect(a.bitmap.count == (a.width + 6) * (a.height + 6))
    #expect(a.advance > 10)
    let space = try #require(glyphs[32])
    #expect(space.bitmap.isEmpty && space.advance > 3)
  }

  @Test func corruptPBFsAreErrorsNamingTheSource() {
    #expect(throws: GlyphError.self) { try GlyphRangeDecoder.decode([0x0A, 0xFF, 0x01], source: "x.pbf") }
    do {
      _ = try GlyphRangeDecoder.decode([0x0A, 0x05, 0x1A, 0x03, 0x08], source: "fonts/x.pbf")
      Issue.record("no error")
    } catch {
      #expect(error.description.hasPrefix("fonts/x.pbf: corrupt glyph PBF"))
    }
  }

  @Test func laysOutEveryGlyphOfALine() throws {
    guard let store = GlyphPBFTests.store() else { return }
    let shaping = store.shape(
      StyledText(sections: [TextSection(text: "ABC")]), fontStack: GlyphPBFTests.stack,
      options: ShapingOptions(maxWidth: 240))
    #expect(shaping.glyphs.map(\.glyph.id) == [65, 66, 67])
    #expect(shaping.lineCount == 1)
    let xs = shaping.glyphs.map(\.x)
    #expect(xs[0] < xs[1] && xs[1] < xs[2])
    // Centred on the anchor.
    #expect(abs(shaping.left + shaping.right) < 1e-9)
    for glyph in shaping.glyphs { #expect(store.atlasRect(glyph.glyph) != nil) }
  }
}

/// Damaged glyph PBFs and font files give errors or fewer glyphs, never a crash or a hang.
@Suite struct TextDecoderFuzzTests {
  static let label = StyledText(sections: [TextSection(text: "Rue 12 شارع नई ถนน 北京")])

  @Test func mutatedGlyphPBFsNeverCrash() throws {
    guard let folder = GlyphPBFTests.fontFolder, let data = FileManager.default.contents(atPath: folder + "/0-255.pbf")
    else {
      print("skipped glyph PBF mutations: \(SharedData.skipReason)")
      return
    }
    let original = Array(data)
    var random = SeededRandom(seed: 0x6_1F_9B)
    var decoded = 0
    for _ in 0..<300 {
      let mutated = random.mutate(original)
      guard (try? GlyphRangeDecoder.decode(mutated, source: "m.pbf")) != nil else { continue }
      decoded += 1
      let store = GlyphStore(loader: { _, start in start == 0 ? (mutated, "m.pbf") : nil })
      let shaping = store.shape(TextDecoderFuzzTests.label, fontStack: ["M"], options: ShapingOptions(maxWidth: 120))
      for glyph in shaping.glyphs { _ = store.atlasRect(glyph.glyph) }
    }
    #expect(decoded > 20)
  }

  @Test func mutatedFontFilesNeverCrash() throws {
    let source = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    guard let data = FileManager.default.contents(atPath: source) else {
      print("skipped font mutations: \(source) is missing (Debian's fonts-dejavu-core)")
      return
    }
    let folder = NSTemporaryDirectory() + "tessera-font-mutations-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var random = SeededRandom(seed: 0xF0_47)
    var shaped = 0
    for _ in 0..<40 {
      _ = FileManager.default.createFile(
        atPath: folder + "/Mutated-Regular.ttf", contents: Data(random.mutate(Array(data))))
      let store = GlyphStore(loader: nil, fonts: FontLibrary(folders: [folder]))
      let shaping = store.shape(TextDecoderFuzzTests.label, fontStack: ["Mutated Regular"], options: ShapingOptions())
      for glyph in shaping.glyphs.prefix(16) { _ = store.atlasRect(glyph.glyph) }
      if !shaping.glyphs.isEmpty { shaped += 1 }
    }
    #expect(shaped > 0)
  }
}
