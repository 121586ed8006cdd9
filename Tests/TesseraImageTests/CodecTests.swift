import TesseraTestSupport
import Testing

@testable import TesseraImage

@Suite struct PNGCodecTests {
  @Test func roundTripIsExactForStraightAlpha() throws {
    let image = RGBAImage(width: 37, height: 23, pixels: Fixtures.gradient(), alpha: .straight)
    for settings in [PNGCodec.Settings.fast, .small] {
      let decoded = try PNGCodec.decode(try PNGCodec.encode(image, settings: settings), source: "memory")
      #expect(decoded == image)
    }
  }

  @Test func encodingPremultipliedConvertsToStraight() throws {
    let straight = RGBAImage(width: 2, height: 1, pixels: [200, 100, 50, 255, 200, 100, 50, 128])
    let premultiplied = straight.premultipliedAlpha()
    #expect(premultiplied.pixels == [200, 100, 50, 255, 100, 50, 25, 128])
    let decoded = try PNGCodec.decode(try PNGCodec.encode(premultiplied), source: "memory")
    #expect(decoded.alpha == .straight)
    #expect(decoded.pixels[0..<4] == [200, 100, 50, 255])
    // 100·255/128 rounds to 199; alpha stays.
    #expect(decoded.pixels[4..<8] == [199, 100, 50, 128])
  }

  /// Sizes that give one band, several bands with a short last band, a single row and a single
  /// column: every one must decode to the same pixels, premultiplied ones as `straightAlpha()`.
  @Test(arguments: [(1, 1), (1, 300), (300, 1), (37, 23), (640, 130), (1024, 1024), (3000, 200)])
  func fastEncoderRoundTripsEveryBandLayout(width: Int, height: Int) throws {
    let straight = RGBAImage(width: width, height: height, pixels: Fixtures.gradient(width: width, height: height))
    let premultiplied = RGBAImage(
      width: width, height: height, pixels: straight.premultipliedAlpha().pixels, alpha: .premultiplied)
    for image in [straight, premultiplied] {
      let encoded = try PNGCodec.encode(image, settings: .fast)
      #expect(try PNGCodec.decode(encoded, source: "memory") == image.straightAlpha())
      // Compressed on all cores, yet the same bytes every time.
      #expect(try PNGCodec.encode(image, settings: .fast) == encoded)
    }
  }

  @Test func fastEncoderSplitsLargeImagesIntoBoundedBands() {
    // 1024 wide: an eighth of the rows would be 128 rows = 512 KiB, just over the band limit.
    #expect(BandedPNGEncoder.rowsPerBand(width: 1024, height: 1024) == 127)
    #expect(BandedPNGEncoder.rowsPerBand(width: 256, height: 256) == 32)
    #expect(BandedPNGEncoder.rowsPerBand(width: 10, height: 20) == 16)
  }

  @Test func decodesPaletteWithTransparency() throws {
    let image = try PNGCodec.decode(Fixtures.palettePNG, source: "palette")
    #expect(image.width == 4 && image.height == 3)
    #expect(image.pixel(x: 0, y: 0) == (255, 0, 0, 255))
    #expect(image.pixel(x: 1, y: 0) == (0, 255, 0, 255))
    #expect(image.pixel(x: 2, y: 0) == (0, 0, 255, 0))
  }

  @Test func decodesGreyGreyAlphaAnd16Bit() throws {
    let grey = try PNGCodec.decode(Fixtures.grayPNG, source: "grey")
    #expect(grey.pixel(x: 1, y: 0) == (128, 128, 128, 255))
    #expect(grey.pixel(x: 2, y: 1) == (16, 16, 16, 255))
    let greyAlpha = try PNGCodec.decode(Fixtures.grayAlphaPNG, source: "grey+alpha")
    #expect(greyAlpha.pixel(x: 1, y: 0) == (20, 20, 20, 128))
    #expect(greyAlpha.pixel(x: 0, y: 1) == (30, 30, 30, 0))
    let deep = try PNGCodec.decode(Fixtures.gray16PNG, source: "16-bit")
    #expect(deep.pixel(x: 0, y: 0) == (0, 0, 0, 255))
    #expect(deep.pixel(x: 1, y: 0) == (255, 255, 255, 255))
    let rgb = try PNGCodec.decode(Fixtures.rgbPNG, source: "rgb")
    #expect(rgb.isUniform && rgb.pixel(x: 4, y: 3) == (200, 100, 50, 255))
  }

  @Test func truncatedAndCorruptDataAreErrorsNamingTheSource() throws {
    let valid = try PNGCodec.encode(RGBAImage(width: 8, height: 8, pixels: Fixtures.gradient(width: 8, height: 8)))
    for cut in [0, 7, 8, 20, 33, valid.count / 2, valid.count - 13] {
      #expect(throws: ImageError.self) { try PNGCodec.decode(Array(valid.prefix(cut)), source: "tile 1/2/3") }
    }
    var badCRC = valid
    badCRC[30] ^= 0xFF  // inside IHDR: its CRC no longer matches
    do {
      _ = try PNGCodec.decode(badCRC, source: "tile 1/2/3")
      Issue.record("a PNG with a bad IHDR CRC decoded")
    } catch let error as ImageError {
      #expect(error.description.hasPrefix("tile 1/2/3: cannot decode PNG"))
    }
  }

  @Test func hugeDimensionsAreRefusedBeforeAllocating() throws {
    // A valid PNG header claiming 100000×100000 pixels.
    var bytes = try PNGCodec.encode(RGBAImage(width: 1, height: 1, fill: .black))
    let ihdr = 16
    for (offset, value) in [(ihdr, UInt32(100_000)), (ihdr + 4, UInt32(100_000))] {
      bytes[offset] = UInt8(value >> 24)
      bytes[offset + 1] = UInt8((value >> 16) & 0xFF)
      bytes[offset + 2] = UInt8((value >> 8) & 0xFF)
      bytes[offset + 3] = UInt8(value & 0xFF)
    }
    let crc = CRC32.checksum(bytes[12..<29])
    bytes[29] = UInt8(crc >> 24)
    bytes[30] = UInt8((crc >> 16) & 0xFF)
    bytes[31] = UInt8((crc >> 8) & 0xFF)
    bytes[32] = UInt8(crc & 0xFF)
    #expect(throws: ImageError.tooLarge(source: "huge", width: 100_000, height: 100_000, limit: 8192 * 8192)) {
      try PNGCodec.decode(bytes, source: "huge")
    }
  }
}

@Suite struct JPEGAndWebPCodecTests {
  @Test func jpegRoundTripIsClose() throws {
    let image = RGBAImage(width: 32, height: 16, fill: Color(r: 40, g: 120, b: 220))
    let decoded = try JPEGCodec.decode(try JPEGCodec.encode(image, quality: 95), source: "memory")
    #expect(decoded.width == 32 && decoded.height == 16)
    let pixel = decoded.pixel(x: 10, y: 10)
    #expect(abs(Int(pixel.r) - 40) <= 3 && abs(Int(pixel.g) - 120) <= 3 && abs(Int(pixel.b) - 220) <= 3)
    #expect(pixel.a == 255)
  }

  @Test func jpegCompositesTransparencyOverWhite() throws {
    let image = RGBAImage(width: 8, height: 8, fill: .transparent)
    let decoded = try JPEGCodec.decode(try JPEGCodec.encode(image), source: "memory")
    #expect(decoded.pixel(x: 3, y: 3).r >= 250)
  }

  @Test func decodesProgressiveAndGreyJPEG() throws {
    let progressive = try JPEGCodec.decode(Fixtures.progressiveJPEG, source: "progressive")
    #expect(progressive.width == 16)
    let pixel = progressive.pixel(x: 8, y: 8)
    #expect(abs(Int(pixel.r) - 200) <= 4 && abs(Int(pixel.g) - 30) <= 4 && abs(Int(pixel.b) - 60) <= 4)
    let grey = try JPEGCodec.decode(Fixtures.grayJPEG, source: "grey")
    let value = grey.pixel(x: 4, y: 4)
    #expect(value.r == value.g && value.g == value.b && abs(Int(value.r) - 100) <= 2)
  }

  @Test func truncatedJPEGIsAnError() throws {
    let valid = try JPEGCodec.encode(RGBAImage(width: 64, height: 64, pixels: Fixtures.gradient(width: 64, height: 64)))
    for cut in [0, 2, 10, 100, valid.count / 2, valid.count - 2] {
      #expect(throws: ImageError.self) { try JPEGCodec.decode(Array(valid.prefix(cut)), source: "cut") }
    }
  }

  @Test func webpLosslessIsExactAndLossyIsClose() throws {
    let image = RGBAImage(width: 37, height: 23, pixels: Fixtures.gradient(), alpha: .straight)
    let lossless = try WebPCodec.decode(try WebPCodec.encode(image), source: "memory")
    #expect(lossless == image)
    let flat = RGBAImage(width: 16, height: 16, fill: Color(r: 10, g: 200, b: 90))
    let lossy = try WebPCodec.decode(try WebPCodec.encode(flat, quality: 90), source: "memory")
    let pixel = lossy.pixel(x: 8, y: 8)
    #expect(abs(Int(pixel.g) - 200) <= 6 && pixel.a == 255)
  }

  @Test func truncatedWebPIsAnError() throws {
    let valid = try WebPCodec.encode(RGBAImage(width: 32, height: 32, pixels: Fixtures.gradient(width: 32, height: 32)))
    for cut in [0, 11, 30, valid.count / 2, valid.count - 1] {
      #expect(throws: ImageError.self) { try WebPCodec.decode(Array(valid.prefix(cut)), source: "cut") }
    }
  }

  @Test func formatIsRecognisedFromBytesAndNames() throws {
    #expect(ImageFormat.sniff(Fixtures.rgbPNG) == .png)
    #expect(ImageFormat.sniff(Fixtures.grayJPEG) == .jpeg)
    #expect(ImageFormat.sniff(try WebPCodec.encode(RGBAImage(width: 1, height: 1, fill: .white))) == .webp)
    #expect(ImageFormat.sniff([0x47, 0x49, 0x46]) == nil)
    #expect(ImageFormat.fromExtension(of: "out/map.JPG") == .jpeg)
    #expect(ImageFormat.fromExtension(of: "dir.png/file") == nil)
    #expect(throws: ImageError.unknownFormat(source: "x.gif")) {
      try ImageCodec.decode([0x47, 0x49, 0x46, 0x38], source: "x.gif")
    }
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func decodesSharedSampleTiles() throws {
    let jpeg = try ImageCodec.decode(
      try SharedData.bytes("data/samples/bluemarble/4/8/5.jpg"), source: "bluemarble 4/8/5")
    #expect(jpeg.width == 256 && jpeg.height == 256)
    let png = try ImageCodec.decode(
      try SharedData.bytes("data/samples/terrarium/12/2132/1493.png"), source: "terrarium")
    #expect(png.width == 256 && png.height == 256)
    let icon = try ImageCodec.decode(try SharedData.bytes("data/icons/marker-icon.png"), source: "marker-icon")
    #expect(icon.width == 25 && icon.height == 41)
  }
}

/// CRC-32 (PNG's), for building test files.
enum CRC32 {
  static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
