import Foundation
import Tessera
import TesseraImage
import TesseraStyle
import TesseraTestSupport
import Testing

/// Styles with glyph PBFs: characters the font stack's PBFs lack (emoji, scripts with no range
/// file) are drawn from local fonts, and `is-supported-script` answers as MapLibre Native does
/// for text drawn from PBFs.
@Suite struct GlyphFallbackTests {
  static var root: String? { SharedData.root.map { $0 + "/conformance/maplibre-symbol-tests" } }

  static func snapshot(field: String, filter: String? = nil) throws -> Snapshot? {
    guard let root = GlyphFallbackTests.root else {
      print("skipped glyph fallback: \(SharedData.skipReason)")
      return nil
    }
    let filterLine = filter.map { #""filter": \#($0),"# } ?? ""
    let json = """
      {"version": 8, "glyphs": "local://glyphs/{fontstack}/{range}.pbf",
       "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "देवनागरी"},
                                                     "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                  {"id": "t", "type": "symbol", "source": "p", \(filterLine)
                   "layout": {"text-field": \(field), "text-font": ["Open Sans Semibold", "Arial Unicode MS Bold"],
                              "text-size": 24}}]}
      """
    let map = try Map(options: MapOptions(width: 200, height: 60, mapType: .none), gpu: .surfaceless)
    try map.setStyle(
      try Style.parse(Array(json.utf8), source: "fallback.json"), name: "fallback.json", dataRoot: "/", localRoot: root)
    return try map.snapshot()
  }

  static func count(_ image: RGBAImage, where test: ((r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool) -> Int {
    var count = 0
    for y in 0..<image.height {
      for x in 0..<image.width where test(image.pixel(x: x, y: y)) { count += 1 }
    }
    return count
  }

  @Test func emojiThePBFsLackAreDrawnInColourFromLocalFonts() throws {
    guard let snapshot = try GlyphFallbackTests.snapshot(field: #""Pizza 🍕""#) else { return }
    let warm = GlyphFallbackTests.count(snapshot.image) { $0.r > 180 && $0.b < 120 && $0.g > 60 }
    let ink = GlyphFallbackTests.count(snapshot.image) { $0.r < 90 && $0.g < 90 && $0.b < 90 }
    #expect(warm > 30, "the pizza's crust and toppings")
    #expect(ink > 30, "the word from the PBFs")
    #expect(
      snapshot.warnings.contains { $0.contains("127744-127999") && $0.contains("drawn from local fonts") },
      "\(snapshot.warnings)")
  }

  @Test func isSupportedScriptAnswersAsMapLibreNativeForPBFText() throws {
    // Devanagari needs shaping glyph PBFs cannot give: filtered out, as MapLibre Native does.
    guard
      let filtered = try GlyphFallbackTests.snapshot(
        field: #"["get", "name"]"#, filter: #"["is-supported-script", ["get", "name"]]"#)
    else { return }
    #expect(GlyphFallbackTests.count(filtered.image) { $0.r < 120 } == 0)
    // Without the filter it is drawn, shaped by HarfBuzz from the local Devanagari font.
    guard let drawn = try GlyphFallbackTests.snapshot(field: #"["get", "name"]"#) else { return }
    #expect(GlyphFallbackTests.count(drawn.image) { $0.r < 120 } > 50)
  }
}
