import Foundation
import Tessera
import TesseraImage
import TesseraStyle
import TesseraTestSupport
import Testing

/// Images inside labels (`["image", name]` in `format`) through the whole map: drawn from the
/// sprite beside the text, with local fonts as with glyph PBFs; unknown images warn and are
/// left out.
@Suite struct TextImageRenderingTests {
  typealias Pixel = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)

  static var root: String? { SharedData.root.map { $0 + "/conformance/maplibre-symbol-tests" } }

  static func style(field: String, glyphs: Bool) -> Style {
    let glyphsLine = glyphs ? #""glyphs": "local://glyphs/{fontstack}/{range}.pbf","# : ""
    let json = """
      {"version": 8, \(glyphsLine) "sprite": "local://sprites/emerald",
       "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                  {"id": "t", "type": "symbol", "source": "p",
                   "layout": {"text-field": \(field), "text-font": ["Open Sans Semibold", "Arial Unicode MS Bold"],
                              "text-size": 24}}]}
      """
    return try! Style.parse(Array(json.utf8), source: "images.json")
  }

  /// The columns and rows of pixels that pass `test`.
  static func extent(_ image: RGBAImage, where test: (Pixel) -> Bool) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
    var xs: [Int] = []
    var ys: [Int] = []
    for y in 0..<image.height {
      for x in 0..<image.width where test(image.pixel(x: x, y: y)) {
        xs.append(x)
        ys.append(y)
      }
    }
    guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
    return (minX...maxX, minY...maxY)
  }

  static func isRed(_ pixel: Pixel) -> Bool { pixel.r > 180 && pixel.g < 110 && pixel.b < 110 }
  static func isInk(_ pixel: Pixel) -> Bool { pixel.r < 90 && pixel.g < 90 && pixel.b < 90 }

  @Test(arguments: [true, false]) func anImageDrawsAfterTheTextAtItsOwnSize(glyphs: Bool) throws {
    guard let root = TextImageRenderingTests.root else {
      print("skipped images in text: \(SharedData.skipReason)")
      return
    }
    let map = try Map(options: MapOptions(width: 200, height: 60, mapType: .none), gpu: .surfaceless)
    let field = #"["format", "Bank ", ["image", "london-underground"], ["image", "no-such-image"]]"#
    try map.setStyle(
      TextImageRenderingTests.style(field: field, glyphs: glyphs), name: "images.json", dataRoot: "/",
      localRoot: root)
    let snapshot = try map.snapshot()
    let ink = try #require(TextImageRenderingTests.extent(snapshot.image, where: TextImageRenderingTests.isInk))
    let red = try #require(TextImageRenderingTests.extent(snapshot.image, where: TextImageRenderingTests.isRed))
    // The roundel (its ring inside an 18 × 16 point image at 1×) follows the word, its
    // bottom near the baseline.
    #expect(red.x.lowerBound > ink.x.upperBound)
    #expect((8...18).contains(red.x.count) && (8...16).contains(red.y.count), "\(red)")
    #expect(abs(red.y.upperBound - ink.y.upperBound) <= 4, "\(red) \(ink)")
    // Word and image together are centred on the anchor.
    #expect(abs(Double(ink.x.lowerBound + red.x.upperBound) / 2 - 100) < 4)
    #expect(snapshot.warnings.contains { $0.contains("no-such-image") }, "\(snapshot.warnings)")
  }

  @Test func fontScaleScalesAnImage() throws {
    guard let root = TextImageRenderingTests.root else {
      print("skipped images in text: \(SharedData.skipReason)")
      return
    }
    var widths: [Int] = []
    for scale in [1, 2] {
      let map = try Map(options: MapOptions(width: 120, height: 80, mapType: .none), gpu: .surfaceless)
      let field = #"["format", ["image", "london-underground"], {"font-scale": \#(scale)}]"#
      try map.setStyle(
        TextImageRenderingTests.style(field: field, glyphs: true), name: "images.json", dataRoot: "/",
        localRoot: root)
      let red = try #require(
        TextImageRenderingTests.extent(try map.snapshot().image, where: TextImageRenderingTests.isRed))
      widths.append(red.x.count)
    }
    #expect(abs(widths[1] - 2 * widths[0]) <= 2, "\(widths)")
  }

  @Test func aTextFieldThatIsAnImageShowsTheImageAlone() throws {
    guard let root = TextImageRenderingTests.root else {
      print("skipped images in text: \(SharedData.skipReason)")
      return
    }
    let map = try Map(options: MapOptions(width: 80, height: 60, mapType: .none), gpu: .surfaceless)
    try map.setStyle(
      TextImageRenderingTests.style(field: #"["image", "london-underground"]"#, glyphs: true), name: "images.json",
      dataRoot: "/", localRoot: root)
    let image = try map.snapshot().image
    let red = try #require(TextImageRenderingTests.extent(image, where: TextImageRenderingTests.isRed))
    #expect(abs(Double(red.x.lowerBound + red.x.upperBound) / 2 - 40) < 2)
    #expect(TextImageRenderingTests.extent(image, where: TextImageRenderingTests.isInk) == nil, "no text")
  }
}
