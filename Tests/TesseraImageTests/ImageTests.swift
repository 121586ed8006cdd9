import TesseraImage
import TesseraTestSupport
import Testing

@Suite struct RGBAImageTests {
  @Test func premultiplyThenStraightenKeepsOpaqueAndRoundsTranslucent() {
    var random = SeededRandom(seed: 7)
    let pixels = (0..<400).map { _ in UInt8.random(in: 0...255, using: &random) }
    let image = RGBAImage(width: 10, height: 10, pixels: pixels)
    let back = image.premultipliedAlpha().straightAlpha()
    for index in stride(from: 0, to: pixels.count, by: 4) {
      let alpha = Int(pixels[index + 3])
      #expect(back.pixels[index + 3] == pixels[index + 3])
      guard alpha > 0 else { continue }
      for channel in 0..<3 {
        // Premultiplying loses precision: the error is at most 255 / (2·alpha) + 1.
        let error = abs(Int(back.pixels[index + channel]) - Int(pixels[index + channel]))
        #expect(error <= 255 / (2 * alpha) + 1)
      }
    }
  }

  @Test func opaqueImagesKeepTheirPixelsInEitherAlphaAndOneTranslucentPixelIsConverted() {
    var random = SeededRandom(seed: 11)
    // 3,000 pixels: more than one block of the opacity scan.
    var pixels = (0..<12_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
    let opaque = RGBAImage(width: 100, height: 30, pixels: pixels)
    #expect(opaque.isOpaque)
    let premultiplied = opaque.premultipliedAlpha()
    #expect(premultiplied.alpha == .premultiplied)
    #expect(premultiplied.pixels == pixels)
    let straight = premultiplied.straightAlpha()
    #expect(straight.alpha == .straight)
    #expect(straight.pixels == pixels)
    for position in [0, 1_500, 2_999] {
      var translucent = pixels
      translucent[position * 4 + 3] = 100
      let image = RGBAImage(width: 100, height: 30, pixels: translucent)
      #expect(!image.isOpaque)
      let converted = image.premultipliedAlpha()
      for channel in 0..<3 {
        let expected = UInt8((Int(translucent[position * 4 + channel]) * 100 + 127) / 255)
        #expect(converted.pixels[position * 4 + channel] == expected)
      }
      let straightened = RGBAImage(width: 100, height: 30, pixels: translucent, alpha: .premultiplied).straightAlpha()
      #expect(!straightened.isOpaque)
      for channel in 0..<3 {
        let expected = min((Int(translucent[position * 4 + channel]) * 255 + 50) / 100, 255)
        #expect(straightened.pixels[position * 4 + channel] == UInt8(expected))
      }
    }
    #expect(RGBAImage(width: 0, height: 0, pixels: []).isOpaque)
  }

  @Test func compositingMakesEveryPixelOpaque() {
    let image = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 128, 0, 0, 0, 0])
    let result = image.composited(over: .white)
    #expect(result.pixel(x: 0, y: 0) == (255, 127, 127, 255))
    #expect(result.pixel(x: 1, y: 0) == (255, 255, 255, 255))
  }

  @Test func uniformity() {
    #expect(RGBAImage(width: 3, height: 3, fill: .lightGray).isUniform)
    var image = RGBAImage(width: 3, height: 3, fill: .lightGray)
    image.setPixel(x: 2, y: 2, (0, 0, 0, 255))
    #expect(!image.isUniform)
  }
}

@Suite struct CSSColorTests {
  @Test(arguments: [
    ("#fff", (255, 255, 255, 255)), ("#00FF0080", (0, 255, 0, 128)), ("#1234", (17, 34, 51, 68)),
    ("#aabbcc", (170, 187, 204, 255)), ("rgb(170, 170, 170)", (170, 170, 170, 255)),
    ("rgba(255,0,0,0.5)", (255, 0, 0, 128)), ("rgb(100%, 0%, 50%)", (255, 0, 128, 255)),
    ("hsl(120, 100%, 50%)", (0, 255, 0, 255)), ("hsla(240, 100%, 50%, 0.25)", (0, 0, 255, 64)),
    ("hsl(0, 0%, 50%)", (128, 128, 128, 255)), ("  RebeccaPurple ", (102, 51, 153, 255)),
    ("transparent", (0, 0, 0, 0)), ("rgb(300, -5, 20)", (255, 0, 20, 255)),
  ])
  func parses(_ text: String, _ expected: (Int, Int, Int, Int)) throws {
    let color = try Color(css: text)
    let (r, g, b, a) = color.rgba8
    #expect([Int(r), Int(g), Int(b), Int(a)] == [expected.0, expected.1, expected.2, expected.3])
  }

  @Test(arguments: ["", "#12", "#ggg", "rgb(1,2)", "rgba(1,2,3)", "blurple", "hsl(1,2,3)", "rgb(a,b,c)", "#1234567"])
  func rejects(_ text: String) {
    #expect(throws: ColorParseError.self) { try Color(css: text) }
  }

  @Test func descriptionIsHex() throws {
    #expect(Color.lightGray.description == "#AAAAAA")
    #expect(try Color(css: "rgba(0,0,255,0.5)").description == "#0000FF80")
  }
}

@Suite struct PixelDiffTests {
  let base = RGBAImage(width: 16, height: 16, fill: Color(r: 120, g: 140, b: 160))

  @Test func identicalImagesDoNotDiffer() throws {
    let result = try PixelDiff().compare(base, base)
    #expect(result.differentPixels == 0 && result.differentFraction == 0 && result.totalPixels == 256)
  }

  @Test func aChangedPixelInAFlatAreaIsCountedAndMarkedRed() throws {
    var changed = base
    changed.setPixel(x: 5, y: 7, (255, 0, 0, 255))
    let result = try PixelDiff().compare(changed, base)
    #expect(result.differentPixels == 1)
    #expect(result.diffImage.pixel(x: 5, y: 7) == (255, 0, 0, 255))
    #expect(result.diffImage.pixel(x: 0, y: 0).r == result.diffImage.pixel(x: 0, y: 0).g)
  }

  @Test func smallColourChangesPassTheThreshold() throws {
    var changed = base
    changed.setPixel(x: 5, y: 7, (122, 141, 160, 255))
    #expect(try PixelDiff().compare(changed, base).differentPixels == 0)
    #expect(try PixelDiff(threshold: 0).compare(changed, base).differentPixels == 1)
  }

  @Test func antialiasedEdgePixelsAreExcusedUnlessIncluded() throws {
    // A vertical edge between black and white; the edge column is grey in one image only.
    func edge(_ middle: UInt8) -> RGBAImage {
      var image = RGBAImage(width: 9, height: 9, fill: .white)
      for y in 0..<9 {
        for x in 0..<4 { image.setPixel(x: x, y: y, (0, 0, 0, 255)) }
        image.setPixel(x: 4, y: y, (middle, middle, middle, 255))
      }
      return image
    }
    let result = try PixelDiff().compare(edge(128), edge(0))
    #expect(result.differentPixels == 0)
    #expect(result.antialiasedPixels == 9)
    #expect(try PixelDiff(includeAntialiasing: true).compare(edge(128), edge(0)).differentPixels == 9)
  }

  @Test func sizeMismatchIsAnError() {
    #expect(throws: PixelDiff.SizeMismatch.self) {
      try PixelDiff().compare(base, RGBAImage(width: 15, height: 16, fill: .white))
    }
  }
}

@Suite struct PremultipliedComparisonTests {
  @Test func premultipliedBlendingWeighsAlphaTwiceAsMapLibreNativeDoes() throws {
    // Half-transparent red against half-transparent dark red: straight blending over white
    // makes them differ clearly; MapLibre Native's runner blends premultiplied values, which
    // washes both towards white.
    let a = RGBAImage(width: 1, height: 1, pixels: [255, 0, 0, 128], alpha: .straight)
    let b = RGBAImage(width: 1, height: 1, pixels: [110, 0, 0, 128], alpha: .straight)
    let straight = try PixelDiff(threshold: PixelDiff.mapLibreThreshold).compare(a, b)
    let premultiplied = try PixelDiff(threshold: PixelDiff.mapLibreThreshold, blending: .premultiplied).compare(a, b)
    #expect(straight.differentPixels == 1)
    #expect(premultiplied.differentPixels == 0)
    // Opaque pixels compare the same either way.
    let c = RGBAImage(width: 1, height: 1, pixels: [0, 0, 255, 255], alpha: .straight)
    #expect(try PixelDiff(blending: .premultiplied).compare(a, c).differentPixels == 1)
  }
}
