import Foundation
import TesseraData
import TesseraImage
import TesseraRender
import TesseraTestSupport
import Testing

/// Sprite sheets: images cut by their index, bad entries left out by name, the `@2x` choice.
@Suite struct SpriteSheetTests {
  /// A 4×2 sheet: the left 2×2 square red, the right one half-transparent green.
  static func sheetBytes() throws -> [UInt8] {
    var image = RGBAImage(width: 4, height: 2)
    for y in 0..<2 {
      for x in 0..<4 { image.setPixel(x: x, y: y, x < 2 ? (255, 0, 0, 255) : (0, 255, 0, 128)) }
    }
    return try ImageCodec.encode(image, as: .png)
  }

  @Test func cutsImagesByTheirIndex() throws {
    let index =
      #"{"red": {"x": 0, "y": 0, "width": 2, "height": 2}, "green": {"x": 2, "y": 0, "width": 2, "height": 2, "pixelRatio": 2, "sdf": true}}"#
    let sheet = try SpriteSheet.decode(index: Array(index.utf8), sheet: try SpriteSheetTests.sheetBytes(), source: "s")
    #expect(sheet.problems.isEmpty)
    let red = try #require(sheet.images["red"])
    #expect(red.image.width == 2 && red.image.height == 2 && red.pixelRatio == 1 && !red.isSDF)
    #expect(red.image.pixel(x: 1, y: 1) == (255, 0, 0, 255))
    let green = try #require(sheet.images["green"])
    #expect(green.pixelRatio == 2 && green.isSDF)
    #expect(green.image.pixel(x: 0, y: 0) == (0, 255, 0, 128))
    #expect(green.displaySize == (1, 1))
  }

  @Test(arguments: [
    (#"{"x": 3, "y": 0, "width": 2, "height": 2}"#, "'width' is 2"),
    (#"{"x": 0, "y": 0, "width": 1e300, "height": 2}"#, "'width' is 1e+300"),
    (#"{"x": -1, "y": 0, "width": 1, "height": 1}"#, "'x' is -1"),
    (#"{"x": 0.5, "y": 0, "width": 1, "height": 1}"#, "'x' is 0.5"),
    (#"{"y": 0, "width": 1, "height": 1}"#, "'x' must be a number"),
    (#"{"x": 0, "y": 0, "width": 1, "height": 1, "pixelRatio": 0}"#, "'pixelRatio' must be a number"),
    (#"{"x": 0, "y": 0, "width": 1, "height": 1, "sdf": "yes"}"#, "'sdf' must be true or false"),
    (#"[1, 2]"#, "expected an object"),
  ])
  func badEntriesAreLeftOutByName(entry: String, reason: String) throws {
    let index = #"{"good": {"x": 0, "y": 0, "width": 1, "height": 1}, "bad": \#(entry)}"#
    let sheet = try SpriteSheet.decode(index: Array(index.utf8), sheet: try SpriteSheetTests.sheetBytes(), source: "s")
    #expect(sheet.images["good"] != nil)
    #expect(sheet.images["bad"] == nil)
    #expect(sheet.problems.count == 1)
    #expect(sheet.problems.first?.contains("s.json: image 'bad': \(reason)") == true, "\(sheet.problems)")
  }

  @Test func unusableFilesThrowNamingTheFile() throws {
    let png = try SpriteSheetTests.sheetBytes()
    #expect(throws: SpriteError.self) { try SpriteSheet.decode(index: Array("[]".utf8), sheet: png, source: "s") }
    do {
      _ = try SpriteSheet.decode(index: Array("{".utf8), sheet: png, source: "icons")
      Issue.record("invalid JSON must throw")
    } catch {
      #expect(error.file == "icons.json")
    }
    do {
      _ = try SpriteSheet.decode(index: Array("{}".utf8), sheet: [1, 2, 3], source: "icons")
      Issue.record("a sheet that is not an image must throw")
    } catch {
      #expect(error.file == "icons.png")
    }
  }

  @Test func highDensityScreensTakeTheDoubleSizeSheetWhenThereIsOne() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sprite-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let png = Data(try SpriteSheetTests.sheetBytes())
    try png.write(to: URL(fileURLWithPath: folder + "/s.png"))
    try Data(#"{"one": {"x": 0, "y": 0, "width": 1, "height": 1}}"#.utf8).write(
      to: URL(fileURLWithPath: folder + "/s.json"))
    #expect(try SpriteSheet.load(base: folder + "/s", pixelRatio: 2).images.keys.sorted() == ["one"])
    try png.write(to: URL(fileURLWithPath: folder + "/s@2x.png"))
    try Data(#"{"two": {"x": 0, "y": 0, "width": 2, "height": 2, "pixelRatio": 2}}"#.utf8).write(
      to: URL(fileURLWithPath: folder + "/s@2x.json"))
    #expect(try SpriteSheet.load(base: folder + "/s", pixelRatio: 2).images.keys.sorted() == ["two"])
    #expect(try SpriteSheet.load(base: folder + "/s", pixelRatio: 1).images.keys.sorted() == ["one"])
    #expect(throws: SpriteError.self) { try SpriteSheet.load(base: folder + "/absent", pixelRatio: 1) }
  }

  @Test func mutatedIndexesAndSheetsNeverCrash() throws {
    let index = Array(
      #"{"a": {"x": 0, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}, "b": {"x": 2, "y": 0, "width": 2, "height": 2, "pixelRatio": 2, "sdf": false}}"#
        .utf8)
    let sheet = try SpriteSheetTests.sheetBytes()
    var random = SeededRandom(seed: 0x5_9417E)
    var decoded = 0
    for iteration in 0..<600 {
      let mutatedIndex = iteration % 2 == 0 ? random.mutate(index) : index
      let mutatedSheet = iteration % 3 == 0 ? random.mutate(sheet) : sheet
      guard let result = try? SpriteSheet.decode(index: mutatedIndex, sheet: mutatedSheet, source: "m") else {
        continue
      }
      decoded += 1
      let atlas = PatternAtlas(images: result.images)
      for (name, position) in atlas.positions {
        let image = try #require(result.images[name])
        #expect(position.bottomRight - position.topLeft == SIMD2(Float(image.image.width), Float(image.image.height)))
      }
    }
    #expect(decoded > 100)
  }
}
