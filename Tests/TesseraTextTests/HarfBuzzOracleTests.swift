import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraText

/// Labels shaped with local fonts compared with `hb-shape` (Debian's libharfbuzz-bin) on the
/// same font files: the glyph ids and their visual order must match. Each expectation lists
/// the label's visual runs by hand (the Unicode bidi algorithm's result: which substring, in
/// which direction, left to right on screen); `hb-shape` shapes each run.
@Suite struct HarfBuzzOracleTests {
  static let fonts = FontLibrary()
  static let store = GlyphStore(loader: nil, fonts: fonts)

  /// A run of the label as it appears on screen: text in logical order, its direction, and
  /// the family whose font shapes it.
  struct Run {
    let text: String
    let rightToLeft: Bool
    let family: String
  }

  static func hbShape(_ run: Run) throws -> [UInt32]? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/hb-shape") else { return nil }
    guard let index = fonts.face(named: run.family + " Regular") ?? fonts.face(named: run.family) else {
      Issue.record("no font for \(run.family)")
      return []
    }
    let face = fonts.faces[index]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/hb-shape")
    process.arguments = [
      "--output-format=json", "--no-glyph-names", "--face-index=\(face.index)",
      "--direction=\(run.rightToLeft ? "rtl" : "ltr")", face.path, run.text,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let json = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    return json.compactMap { ($0["g"] as? NSNumber)?.uint32Value }
  }

  /// The glyph ids of `text` as Tessera shapes it (one line), in visual order (left to right
  /// on screen).
  static func tessera(_ text: String, fontStack: [String] = ["Noto Sans Regular"]) -> [UInt32] {
    let shaping = store.shape(
      StyledText(sections: [TextSection(text: text)]), fontStack: fontStack, options: ShapingOptions())
    return shaping.glyphs.map(\.glyph.id)
  }

  static let cases: [(label: String, runs: [Run])] = [
    (
      "خیابان ولیعصر ۱۲",
      [
        Run(text: "۱۲", rightToLeft: false, family: "Noto Sans Arabic"),
        Run(text: "خیابان ولیعصر ", rightToLeft: true, family: "Noto Sans Arabic"),
      ]
    ),
    ("شارع الملك فيصل", [Run(text: "شارع الملك فيصل", rightToLeft: true, family: "Noto Sans Arabic")]),
    ("רחוב הרצל", [Run(text: "רחוב הרצל", rightToLeft: true, family: "Noto Sans Hebrew")]),
    ("नई दिल्ली", [Run(text: "नई दिल्ली", rightToLeft: false, family: "Noto Sans Devanagari")]),
    ("ถนนสุขุมวิท", [Run(text: "ถนนสุขุมวิท", rightToLeft: false, family: "Noto Sans Thai")]),
    ("北京市朝阳区", [Run(text: "北京市朝阳区", rightToLeft: false, family: "Noto Sans CJK SC")]),
    (
      "Tehran تهران",
      [
        Run(text: "Tehran ", rightToLeft: false, family: "Noto Sans"),
        Run(text: "تهران", rightToLeft: true, family: "Noto Sans Arabic"),
      ]
    ),
    (
      "میدان Azadi",
      [
        Run(text: "Azadi", rightToLeft: false, family: "Noto Sans"),
        Run(text: " ", rightToLeft: true, family: "Noto Sans Arabic"),
        Run(text: "میدان", rightToLeft: true, family: "Noto Sans Arabic"),
      ]
    ),
    ("Office", [Run(text: "Office", rightToLeft: false, family: "Noto Sans")]),
  ]

  @Test(arguments: 0..<cases.count)
  func glyphsAndOrderMatchHBShape(_ index: Int) throws {
    let (label, runs) = HarfBuzzOracleTests.cases[index]
    var expected: [UInt32] = []
    for run in runs {
      guard let glyphs = try HarfBuzzOracleTests.hbShape(run) else {
        print("skipped the hb-shape comparison: /usr/bin/hb-shape is missing (Debian's libharfbuzz-bin)")
        return
      }
      expected += glyphs
    }
    // hb-shape gives no glyph for spaces at the line's end; Tessera trims them before.
    #expect(HarfBuzzOracleTests.tessera(label).filter { $0 != 3 } == expected.filter { $0 != 3 }, "\(label)")
  }

  @Test func persianJoinsIntoContextualForms() {
    // The same letter (beh, U+0628) alone and joined on both sides gives different glyphs.
    let alone = HarfBuzzOracleTests.tessera("ب")
    let joined = HarfBuzzOracleTests.tessera("ببب")
    #expect(alone.count == 1 && joined.count == 3)
    #expect(Set(joined).count == 3, "initial, medial and final forms differ")
    #expect(!joined.contains(alone[0]))
  }

  @Test func missingFontsFallBackPerScript() {
    let chain = HarfBuzzOracleTests.fonts.chain(for: ["No Such Font Regular"])
    let families = chain.map { HarfBuzzOracleTests.fonts.faces[$0].family }
    #expect(families.first == "Noto Sans")
    #expect(families.contains("Noto Sans Arabic") && families.contains("Noto Sans CJK SC"))
    #expect(
      HarfBuzzOracleTests.fonts.face(named: "NotoSans-Bold") == HarfBuzzOracleTests.fonts.face(named: "Noto Sans Bold"))
  }

  @Test func fontGlyphsBecomeDistanceFields() throws {
    let shaping = HarfBuzzOracleTests.store.shape(
      StyledText(sections: [TextSection(text: "A")]), fontStack: ["Noto Sans Regular"], options: ShapingOptions())
    let glyph = try #require(shaping.glyphs.first)
    let field = try #require(HarfBuzzOracleTests.store.bitmap(glyph.glyph))
    let size = field.bitmapSize
    #expect(field.bitmap.count == size.width * size.height && field.width > 8)
    // Inside the ink above the outline value (192), outside below it.
    #expect(field.bitmap.max()! > 200 && field.bitmap.min()! < 192)
    #expect(HarfBuzzOracleTests.store.atlasRect(glyph.glyph) != nil)
  }
}
