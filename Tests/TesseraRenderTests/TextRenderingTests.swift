import Foundation
import Tessera
import TesseraImage
import TesseraStyle
import TesseraTestSupport
import Testing

/// Labels through the whole map: local fonts and glyph PBFs, the warnings and errors of
/// missing or broken glyph sources, and bounded growth over many frames.
@Suite struct TextRenderingTests {
  static func style(glyphs: String?, text: String, font: String = "Noto Sans Regular") -> Style {
    let glyphsLine = glyphs.map { #""glyphs": "\#($0)","# } ?? ""
    let json = """
      {"version": 8, \(glyphsLine) "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                  {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "\(text)", "text-font": ["\(font)"], "text-size": 24}}]}
      """
    return try! Style.parse(Array(json.utf8), source: "label.json")
  }

  /// The darkest pixel of the image (a label's ink).
  static func darkest(_ image: RGBAImage) -> Int {
    var darkest = 255
    for y in 0..<image.height {
      for x in 0..<image.width { darkest = min(darkest, Int(image.pixel(x: x, y: y).r)) }
    }
    return darkest
  }

  @Test func labelsDrawWithLocalFontsWhenTheStyleHasNoGlyphs() throws {
    let map = try Map(options: MapOptions(width: 160, height: 60, mapType: .none), gpu: .surfaceless)
    try map.setStyle(TextRenderingTests.style(glyphs: nil, text: "Label"), name: "label.json", dataRoot: "/")
    let image = try map.snapshot().image
    #expect(TextRenderingTests.darkest(image) < 40, "black ink")
    // The ink is centred on the anchor and one line tall.
    var rows = Set<Int>()
    var columns = Set<Int>()
    for y in 0..<image.height {
      for x in 0..<image.width where image.pixel(x: x, y: y).r < 128 {
        rows.insert(y)
        columns.insert(x)
      }
    }
    #expect(abs(Double(columns.min()! + columns.max()!) / 2 - 80) < 3)
    #expect(rows.count > 12 && rows.count < 30)
  }

  @Test func missingRangesWarnOnceAndTheRestDraws() throws {
    guard let root = SharedData.root.map({ $0 + "/conformance/maplibre-symbol-tests" }) else {
      print("skipped the missing-range warning test: \(SharedData.skipReason)")
      return
    }
    let map = try Map(options: MapOptions(width: 200, height: 60, mapType: .none), gpu: .surfaceless)
    let style = TextRenderingTests.style(
      glyphs: "local://glyphs/{fontstack}/{range}.pbf", text: "Delhi दिल्ली",
      font: "Open Sans Semibold\", \"Arial Unicode MS Bold")
    try map.setStyle(style, name: "label.json", dataRoot: "/", localRoot: root)
    let first = try map.snapshot()
    #expect(TextRenderingTests.darkest(first.image) < 60, "the Latin part draws")
    let warnings = first.warnings.filter { $0.contains("2304-2559") }
    #expect(warnings.count == 1, "\(first.warnings)")
    #expect(warnings.first?.contains("Open Sans Semibold,Arial Unicode MS Bold") == true)
    #expect(try map.snapshot().warnings.filter { $0.contains("2304-2559") }.isEmpty, "said once")
  }

  @Test func corruptGlyphFilesAreErrorsNamingTheFile() throws {
    let folder = NSTemporaryDirectory() + "tessera-corrupt-glyphs-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder + "/Broken", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = FileManager.default.createFile(atPath: folder + "/Broken/0-255.pbf", contents: Data([0x0A, 0xFF, 0x01]))
    let map = try Map(options: MapOptions(width: 64, height: 32, mapType: .none), gpu: .surfaceless)
    try map.setStyle(
      TextRenderingTests.style(glyphs: folder + "/{fontstack}/{range}.pbf", text: "A", font: "Broken"),
      name: "label.json", dataRoot: "/")
    do {
      _ = try map.snapshot()
      Issue.record("no error")
    } catch {
      #expect("\(error)".contains(folder + "/Broken/0-255.pbf") && "\(error)".contains("corrupt glyph PBF"))
    }
  }

  @Test func unreadableFontsInAGivenFolderAreErrors() throws {
    let folder = NSTemporaryDirectory() + "tessera-bad-fonts-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = FileManager.default.createFile(atPath: folder + "/Broken-Regular.ttf", contents: Data(repeating: 7, count: 100))
    var options = MapOptions(width: 64, height: 32, mapType: .none)
    options.fontFolders = [folder]
    let map = try Map(options: options, gpu: .surfaceless)
    #expect {
      try map.setStyle(TextRenderingTests.style(glyphs: nil, text: "A"), name: "label.json", dataRoot: "/")
    } throws: { "\($0)".contains(folder + "/Broken-Regular.ttf") }
  }

  @Test func labelsAreTheSameBytesEveryTime() throws {
    let map = try Map(options: MapOptions(width: 120, height: 60, mapType: .none), gpu: .surfaceless)
    try map.setStyle(TextRenderingTests.style(glyphs: nil, text: "Same خیابان"), name: "label.json", dataRoot: "/")
    let first = try map.snapshot().image
    #expect(try map.snapshot().image == first, "placed again from the same camera")
    map.moveCamera(.scrollBy(x: 7, y: 3))
    #expect(try map.snapshot().image != first, "a new camera places anew")
    map.moveCamera(.scrollBy(x: -7, y: -3))
    #expect(try map.snapshot().image == first, "and back")
  }

  @Test func manyFramesKeepTheAtlasBounded() throws {
    let map = try Map(options: MapOptions(width: 96, height: 48, mapType: .none), gpu: .surfaceless)
    try map.setStyle(TextRenderingTests.style(glyphs: nil, text: "Bounded"), name: "label.json", dataRoot: "/")
    var bytes: [Int] = []
    for index in 0..<60 {
      map.moveCamera(.zoomTo(1 + Double(index % 12)))
      _ = try map.snapshot()
      bytes.append(map.gpuCacheBytesUsed)
    }
    // The same twelve cameras again and again: after the first round nothing grows.
    for index in 24..<60 { #expect(bytes[index] == bytes[index - 12], "frame \(index)") }
  }
}
