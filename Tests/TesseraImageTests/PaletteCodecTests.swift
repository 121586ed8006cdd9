import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImage

/// GIF and palette PNG (PNG8): the quantizer, the encoders and giflib's decoder, checked against
/// files written by another encoder (Pillow).
@Suite struct PaletteCodecTests {
  /// 16×17 interlaced GIF written by Pillow: pixel (x, y) has index (3y + x) mod 4 of the palette
  /// red, green, blue, (10, 20, 30), and index 2 (blue) is transparent.
  static let interlacedGIF = [UInt8](
    Data(
      base64Encoded:
        "R0lGODlhEAARAIEAAP8AAAD/AAAA/woUHiH5BAEAAAIALAAAAAAQABEAQAg7AAEEEDBAIEGDBQcmPKgQocOGEBlKXEjx4USLAy5GrLgRo8eOIBly1CggZMWRI006RGlRZUOWEV0eDAgAOw=="
    )!)
  /// A two-frame 4×2 animation written by Pillow: the first frame is (200, 100, 50), the second black.
  static let animatedGIF = [UInt8](
    Data(
      base64Encoded:
        "R0lGODlhBAACAIEAAMhkMgAAAAAAAAAAACH/C05FVFNDQVBFMi4wAwEAAAAh+QQACgAAACwAAAAABAACAAAIBwABCBwoMCAAIfkEAQoAAQAsAAAAAAQAAgCBAAAAAAAAAAAAAAAACAcAAQgcKDAgADs="
    )!)

  /// A map-like picture: four flat areas, a soft gradient edge between them and text-like
  /// speckles, far more than 256 colours.
  static func mapLike(width: Int = 128, height: Int = 96) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        let flat: (UInt8, UInt8, UInt8) =
          x < width / 2
          ? (y < height / 2 ? (242, 239, 233) : (170, 211, 223)) : (y < height / 2 ? (205, 235, 176) : (255, 255, 255))
        let edge = abs(x - width / 2)
        var pixel = (flat.0, flat.1, flat.2, UInt8(255))
        if edge < 8 { pixel = (UInt8(120 + edge * 15), UInt8(100 + edge * 17), UInt8(90 + edge * 19), 255) }
        if (x * 7 + y * 13) % 29 == 0 { pixel = (UInt8(x * 2 % 256), UInt8(y * 2 % 256), UInt8((x + y) % 256), 255) }
        image.setPixel(x: x, y: y, pixel)
      }
    }
    return image
  }

  static func meanAbsoluteDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(a.pixels.count)
  }

  @Test func decodesAnInterlacedGIFWithATransparentIndex() throws {
    let image = try ImageCodec.decode(Self.interlacedGIF, source: "pillow.gif")
    #expect(image.width == 16 && image.height == 17)
    let colours: [(UInt8, UInt8, UInt8, UInt8)] = [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 0, 0), (10, 20, 30, 255)]
    for y in 0..<17 {
      for x in 0..<16 {
        let expected = colours[(3 * y + x) % 4]
        #expect(image.pixel(x: x, y: y) == expected, "pixel \(x),\(y)")
      }
    }
  }

  @Test func decodesTheFirstFrameOfAnAnimation() throws {
    let image = try GIFCodec.decode(Self.animatedGIF, source: "animated.gif")
    #expect(image.width == 4 && image.height == 2)
    #expect(image.pixels.chunks(4).allSatisfy { $0 == [200, 100, 50, 255] })
  }

  @Test func badGIFsAreErrorsNamingTheSource() throws {
    for cut in [6, 13, 30, Self.interlacedGIF.count - 10] {
      #expect {
        try GIFCodec.decode(Array(Self.interlacedGIF.prefix(cut)), source: "cut.gif")
      } throws: { error in
        "\(error)".hasPrefix("cut.gif: cannot decode GIF")
      }
    }
    // A 30,000 × 30,000 screen is refused before allocating.
    var huge = Self.interlacedGIF
    huge[6] = 0x30
    huge[7] = 0x75
    huge[8] = 0x30
    huge[9] = 0x75
    #expect(throws: ImageError.tooLarge(source: "huge.gif", width: 30000, height: 30000, limit: 1 << 20)) {
      try GIFCodec.decode(huge, source: "huge.gif", limits: DecodeLimits(maxPixels: 1 << 20))
    }
  }

  @Test func fewColoursRoundTripExactlyThroughGIF() throws {
    let source = try ImageCodec.decode(Self.interlacedGIF, source: "pillow.gif")
    let encoded = try ImageCodec.encode(source, as: .gif)
    #expect(ImageFormat.sniff(encoded) == .gif)
    #expect(Array(encoded.prefix(6)) == Array("GIF89a".utf8))
    #expect(try ImageCodec.decode(encoded, source: "ours.gif") == source)
  }

  @Test func manyColoursGIFIsCloseDeterministicAndSmall() throws {
    let image = Self.mapLike()
    let encoded = try GIFCodec.encode(image)
    #expect(try GIFCodec.encode(image) == encoded)
    let decoded = try GIFCodec.decode(encoded, source: "map.gif")
    #expect(Self.meanAbsoluteDifference(decoded, image) < 1.5)
    // The flat areas, most of the picture, keep their exact colours.
    for (x, y) in [(5, 5), (5, 90), (120, 5), (120, 90)] {
      #expect(decoded.pixel(x: x, y: y) == image.pixel(x: x, y: y), "flat area at \(x),\(y)")
    }
    #expect(encoded.count < (try PNGCodec.encode(image)).count)
  }

  @Test func gifKeepsTransparencyAsOneIndex() throws {
    var image = Self.mapLike(width: 40, height: 30)
    for y in 0..<10 { for x in 0..<40 { image.setPixel(x: x, y: y, (9, 9, 9, y < 5 ? 0 : 100)) } }
    let decoded = try GIFCodec.decode(try GIFCodec.encode(image), source: "transparent.gif")
    #expect(decoded.pixel(x: 3, y: 2).a == 0)
    #expect(decoded.pixel(x: 3, y: 7).a == 0, "alpha 100 is below half: transparent")
    #expect(decoded.pixel(x: 3, y: 20).a == 255)
  }

  @Test func palettePNGKeepsFewColoursAndAlphasExactly() throws {
    var image = RGBAImage(width: 20, height: 10)
    for y in 0..<10 {
      for x in 0..<20 { image.setPixel(x: x, y: y, (UInt8(x * 12), UInt8(y * 25), 7, UInt8(x % 3 == 0 ? 128 : 255))) }
    }
    let encoded = try ImageCodec.encode(image, as: .png, palette: true)
    #expect(encoded[25] == 3, "colour type palette")
    #expect(try PNGCodec.decode(encoded, source: "png8") == image)
  }

  @Test func palettePNGOfManyColoursIsCloseAndSmaller() throws {
    let image = Self.mapLike(width: 256, height: 192)
    let encoded = try PNGCodec.encodePalette(image)
    #expect(encoded[25] == 3)
    let decoded = try PNGCodec.decode(encoded, source: "png8")
    #expect(Self.meanAbsoluteDifference(decoded, image) < 1.5)
    #expect(encoded.count < (try PNGCodec.encode(image)).count)
    #expect(try PNGCodec.encodePalette(image) == encoded)
  }

  @Test func quantizerKeepsAtMostTheAskedColours() {
    let image = RGBAImage(width: 64, height: 64, pixels: Fixtures.gradient(width: 64, height: 64))
    for limit in [2, 16, 255, 256] {
      let indexed = ColorQuantizer.quantize(image, maxColors: limit)
      #expect(indexed.paletteCount <= limit)
      #expect(indexed.indices.allSatisfy { Int($0) < indexed.paletteCount })
    }
    // More colours, less error.
    let coarse = Self.meanAbsoluteDifference(ColorQuantizer.quantize(image, maxColors: 16).expanded(), image)
    let fine = Self.meanAbsoluteDifference(ColorQuantizer.quantize(image, maxColors: 256).expanded(), image)
    #expect(fine < coarse)
    // 4,096 colours spread over all four channels (blue is x·y mod 256): 256 boxes leave
    // about a sixteenth of each channel's range per box.
    #expect(fine < 10)
  }
}

extension Array {
  /// Consecutive slices of `size` elements (the last may be shorter).
  fileprivate func chunks(_ size: Int) -> [ArraySlice<Element>] {
    stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
  }
}
