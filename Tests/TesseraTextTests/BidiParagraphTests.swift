import Testing

@testable import TesseraText

/// Text of several paragraphs: each paragraph takes its direction from its own first strong
/// character (as ICU reads text with paragraph separators, and MapLibre Native with it).
@Suite struct BidiParagraphTests {
  static func codePoints(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

  @Test func anArabicParagraphAfterAnEnglishOneReadsRightToLeft() {
    let text = StyledText(sections: [TextSection(text: "Open 24h\nمفتوح!")])
    let lines = BidiText.visualLines(text, breaks: [])
    #expect(lines.count == 2)
    // Visual order: the exclamation mark, at the Arabic paragraph's logical end, comes first
    // (leftmost); the Arabic letters follow reversed.
    let second = lines[1].codePoints.filter { $0 != 0x0A }
    #expect(second.first == 0x21, "\(second)")
    #expect(second.dropFirst() == BidiParagraphTests.codePoints("مفتوح").reversed()[...])
    // Levels: the English paragraph at 0, the Arabic one (ending in '!') all at 1.
    let levels = BidiText.embeddingLevels(text)
    #expect(levels.prefix(8).allSatisfy { $0 == 0 })
    #expect(levels.suffix(6).allSatisfy { $0 == 1 }, "\(levels)")
  }

  @Test func anEnglishParagraphAfterAnArabicOneReadsLeftToRight() {
    let text = StyledText(sections: [TextSection(text: "مقهى\nCafe (2)")])
    let lines = BidiText.visualLines(text, breaks: [])
    #expect(lines.last?.codePoints == BidiParagraphTests.codePoints("Cafe (2)"), "no mirrored brackets, no reversal")
    #expect(BidiText.paragraphs(text) == [0..<5, 5..<13])
  }
}
