import TesseraData
import TesseraText
import Testing

/// Images inside text (`["image", name]` in `format`) laid out in the line as MapLibre Native
/// lays them out: sized against the text size, bottoms on the baseline, lines pushed down by
/// taller images, counted in line widths.
@Suite struct InlineImageLayoutTests {
  /// A glyph 10 pixels wide (at 24 px) in section 0.
  static let glyph = LineItem(
    glyph: GlyphKey(font: 0, id: 65), metrics: GlyphMetrics(width: 8, height: 12, left: 1, top: -5, advance: 10),
    section: 0)

  static func image(_ width: Double, _ height: Double, vertical: Bool = false) -> LineItem {
    LineItem(image: InlineImage(name: "shield", width: width, height: height), section: 1, vertical: vertical)
  }

  @Test func anImageAdvancesByItsWidthScaledAgainstTheTextSize() {
    // Text 16 px high: an image of font-scale 1 takes 24/16 layout pixels per point, so that
    // drawn at 16/24 it shows at its own size.
    let shaping = TextLayout.layout(
      [[InlineImageLayoutTests.glyph, InlineImageLayoutTests.image(18, 16)]], scales: [1, 1], spacing: 0,
      lineHeight: 28.8, anchor: .topLeft, justify: .left, textSize: 16)
    let image = shaping.glyphs[1]
    #expect(image.image == "shield")
    #expect(image.scale == 1.5)
    #expect(image.x == 10)
    #expect(shaping.right - shaping.left == 10 + 18 * 1.5)
    // Its bottom on the baseline: one em below the line's top less its height (24 - 16 · 1.5).
    #expect(abs((image.y - shaping.glyphs[0].y) - 0) < 1e-9)
    // Not taller than the line: the line keeps its height.
    #expect(abs(shaping.bottom - shaping.top - 28.8) < 1e-9)
  }

  @Test func aShortImageSitsOnTheBaseline() {
    let shaping = TextLayout.layout(
      [[InlineImageLayoutTests.glyph, InlineImageLayoutTests.image(20, 10)]], scales: [1, 1], spacing: 0,
      lineHeight: 28.8, anchor: .center, justify: .center)
    // 24 − 10 pixels below a glyph's pen line.
    #expect(abs(shaping.glyphs[1].y - shaping.glyphs[0].y - 14) < 1e-9)
  }

  @Test func aTallImagePushesItsLineDown() {
    // 30 points high at 24 px text: 6 pixels over the em.
    let tall = TextLayout.layout(
      [[InlineImageLayoutTests.glyph, InlineImageLayoutTests.image(18, 30)], [InlineImageLayoutTests.glyph]],
      scales: [1, 1], spacing: 0, lineHeight: 24, anchor: .top, justify: .center)
    #expect(abs(tall.bottom - tall.top - (2 * 24 + 6)) < 1e-9)
    #expect(tall.glyphs.map(\.lineOffset) == [6, 6, 0])
    // The first line's glyphs move down by the overhang, the image's top at the block's
    // top; the next line follows one line height below the pushed line.
    #expect(abs(tall.glyphs[0].y - 6) < 1e-9)
    #expect(abs(tall.glyphs[1].y - 0) < 1e-9)
    #expect(abs(tall.glyphs[2].y - tall.glyphs[0].y - 24) < 1e-9)
  }

  @Test func uprightImagesOfVerticalTextAdvanceByTheirHeight() {
    let item = InlineImageLayoutTests.image(40, 20, vertical: true)
    #expect(item.metrics.advance == 20)
    let shaping = TextLayout.layout(
      [[item, InlineImageLayoutTests.glyph]], scales: [1, 1], spacing: 0, lineHeight: 24, anchor: .left,
      justify: .left)
    #expect(shaping.glyphs[1].x - shaping.glyphs[0].x == 20)
    // Across a vertical line its width counts: 40 − 24 over the em.
    #expect(shaping.glyphs[0].lineOffset == 16)
    #expect(shaping.isVerticalizable)
  }

  @Test func justificationCountsImages() {
    let shaping = TextLayout.layout(
      [[InlineImageLayoutTests.glyph, InlineImageLayoutTests.image(20, 16)], [InlineImageLayoutTests.glyph]],
      scales: [1, 1], spacing: 0, lineHeight: 24, anchor: .center, justify: .right)
    // Right justified: both lines end at the block's right edge.
    let firstEnd = shaping.glyphs[1].x + 20
    let secondEnd = shaping.glyphs[2].x + 10
    #expect(abs(firstEnd - secondEnd) < 1e-9)
    #expect(abs(firstEnd - shaping.right) < 1e-9)
  }

  @Test func metricsAreWholePoints() {
    // A 2× image of 35 pixels is 17.5 points wide: MapLibre Native's metrics keep 17.
    let metrics = InlineImage(name: "half", width: 17.5, height: 16).metrics(vertical: false)
    #expect(metrics.width == 17 && metrics.advance == 17)
    #expect(metrics.left == 1 && metrics.top == -3)
  }

  @Test func shapingBreaksLinesAroundImages() throws {
    guard let store = GlyphPBFTests.store() else {
      print("skipped shaping with images: no shared glyphs")
      return
    }
    let text = StyledText(sections: [
      TextSection(text: "Line"), TextSection(text: "", image: "a"), TextSection(text: "Rail"),
      TextSection(text: "", image: "b"), TextSection(text: "", image: "missing"),
    ])
    var options = ShapingOptions(maxWidth: 60)
    options.images = [
      "a": InlineImage(name: "a", width: 30, height: 20), "b": InlineImage(name: "b", width: 30, height: 20),
    ]
    let shaping = store.shape(text, fontStack: GlyphPBFTests.stack, options: options)
    // The unknown image is left out; the known ones are laid out as items of their own.
    #expect(shaping.glyphs.compactMap(\.image) == ["a", "b"])
    // A line may break after an image: the images' widths make the label two lines, the
    // first ending with image a, the second with image b.
    #expect(shaping.lineCount == 2)
    let a = try #require(shaping.glyphs.first { $0.image == "a" })
    let b = try #require(shaping.glyphs.first { $0.image == "b" })
    #expect(b.y > a.y)
    #expect(a.x > shaping.glyphs[0].x)
    // Without the images the words alone fit one line.
    let words = StyledText(sections: [TextSection(text: "Line"), TextSection(text: "Rail")])
    #expect(store.shape(words, fontStack: GlyphPBFTests.stack, options: ShapingOptions(maxWidth: 60)).lineCount == 1)
  }
}
