import Foundation
import TesseraText
import Testing

/// Emoji in colour: clusters found by Unicode's emoji rules, shaped whole with the colour font
/// (one glyph each), drawn as pictures into text masks; a warning when no colour font exists.
@Suite struct ColorEmojiTests {
  static let emojiFont = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
  static let textFont = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"

  static var skipReason: String? {
    for file in [emojiFont, textFont] where !FileManager.default.fileExists(atPath: file) {
      return "\(file) is missing (Debian's fonts-noto-color-emoji and fonts-noto-core)"
    }
    return nil
  }

  /// A library of the text font and, when asked, the emoji font.
  static func library(withEmoji: Bool) throws -> (FontLibrary, cleanUp: () -> Void) {
    // A folder of each call's own: tests run at once, and one's clean-up must not empty another's.
    let folder = NSTemporaryDirectory() + "tessera-emoji-fonts-\(getpid())-\(withEmoji)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try? FileManager.default.removeItem(atPath: folder + "/NotoSans-Regular.ttf")
    try FileManager.default.createSymbolicLink(atPath: folder + "/NotoSans-Regular.ttf", withDestinationPath: textFont)
    if withEmoji {
      try? FileManager.default.removeItem(atPath: folder + "/NotoColorEmoji.ttf")
      try FileManager.default.createSymbolicLink(
        atPath: folder + "/NotoColorEmoji.ttf", withDestinationPath: emojiFont)
    }
    return (FontLibrary(folders: [folder]), { try? FileManager.default.removeItem(atPath: folder) })
  }

  static func codePoints(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

  @Test func clustersFollowUnicodesEmojiPresentation() {
    // Emoji presentation by default, or asked for with U+FE0F, keycaps, modifiers, ZWJ.
    let text = "A😀 👨‍👩‍👧 🇫🇷 1️⃣ 👍🏽 ☀️ ☀ © #"
    let points = ColorEmojiTests.codePoints(text)
    let clusters = EmojiText.clusters(points).map { range in
      String(String.UnicodeScalarView(range.map { Unicode.Scalar(points[$0])! }))
    }
    #expect(clusters == ["😀", "👨‍👩‍👧", "🇫🇷", "1️⃣", "👍🏽", "☀️"])
    // Text presentation asked for (U+FE0E) and plain text stay text.
    #expect(EmojiText.clusters(ColorEmojiTests.codePoints("☀︎ 1 # Hello")).isEmpty)
    #expect(EmojiText.clusters([]).isEmpty)
  }

  @Test func eachClusterIsOneColourGlyph() throws {
    if let reason = ColorEmojiTests.skipReason {
      print("skipped the colour emoji shaping test: \(reason)")
      return
    }
    let (fonts, cleanUp) = try ColorEmojiTests.library(withEmoji: true)
    defer { cleanUp() }
    #expect(fonts.colorFaces.count == 1)
    let store = GlyphStore(loader: nil, fonts: fonts)
    let shaping = store.shape(
      StyledText(sections: [TextSection(text: "Hi 👨‍👩‍👧🇫🇷1️⃣👍🏽")]), fontStack: ["Noto Sans Regular"],
      options: ShapingOptions(anchor: .topLeft, justify: .left))
    let colour = shaping.glyphs.filter { fonts.isColorFont($0.glyph.font) }
    // Family, flag, keycap, thumbs-up with skin tone: four glyphs, not their 13 code points.
    #expect(colour.count == 4)
    #expect(shaping.glyphs.count - colour.count == 3, "H, i and the space")
    for glyph in colour {
      let picture = try #require(store.colorGlyph(glyph.glyph))
      #expect(picture.width > 60 && picture.height > 60, "a bitmap strike, not an outline")
      // An emoji is about an em wide at the 24 px layout size.
      #expect(glyph.metrics.advance > 20 && glyph.metrics.advance < 36)
      #expect(store.bitmap(glyph.glyph) == nil, "colour glyphs are not distance fields")
    }
    // The pen advances in order: the glyphs do not overlap.
    let xs = colour.map(\.x)
    #expect(xs == xs.sorted() && Set(xs).count == xs.count)
  }

  @Test func textMasksCarryTheEmojisOwnColours() throws {
    if let reason = ColorEmojiTests.skipReason {
      print("skipped the colour emoji mask test: \(reason)")
      return
    }
    let (fonts, cleanUp) = try ColorEmojiTests.library(withEmoji: true)
    defer { cleanUp() }
    let store = GlyphStore(loader: nil, fonts: fonts)
    let shaping = store.shape(
      StyledText(sections: [TextSection(text: "A 🍕")]), fontStack: ["Noto Sans Regular"],
      options: ShapingOptions(anchor: .topLeft, justify: .left))
    let mask = TextRasterizer.mask(shaping, glyphs: store, pixelsPerUnit: 1)
    #expect(mask.colorLayer.count == mask.width * mask.height * 4)
    // Black ink gives the letter; the pizza keeps its warm colours (red above blue) wherever
    // it covers.
    var warm = 0
    var inked = 0
    for index in 0..<(mask.width * mask.height) {
      let pixel = mask.premultiplied(index, ink: (0, 0, 0))
      guard pixel.a > 0.9 else { continue }
      if pixel.r > pixel.b + 0.2 { warm += 1 } else if pixel.r + pixel.g + pixel.b < 0.1 { inked += 1 }
    }
    #expect(warm > 100, "the pizza's pixels")
    #expect(inked > 20, "the letter's pixels")
  }

  @Test func withoutAColourFontAWarningSaysSo() throws {
    if let reason = ColorEmojiTests.skipReason {
      print("skipped the missing colour font test: \(reason)")
      return
    }
    let (fonts, cleanUp) = try ColorEmojiTests.library(withEmoji: false)
    defer { cleanUp() }
    let store = GlyphStore(loader: nil, fonts: fonts)
    _ = store.shape(
      StyledText(sections: [TextSection(text: "Plain text")]), fontStack: ["Noto Sans Regular"],
      options: ShapingOptions())
    #expect(store.warnings.isEmpty)
    _ = store.shape(
      StyledText(sections: [TextSection(text: "Pizza 🍕")]), fontStack: ["Noto Sans Regular"],
      options: ShapingOptions())
    #expect(store.warnings.contains { $0.contains("no colour emoji font") && $0.contains("fonts-noto-color-emoji") })
  }
}
