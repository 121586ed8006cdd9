import TesseraTestSupport
import Testing

@testable import TesseraImage

/// The fast PNG encoder's own deflate compressor (`png_deflate.c`): every kind of content it
/// meets decodes through libpng (which checks the zlib stream and its Adler-32) to the same
/// pixels, in every band layout, and its files are no larger than zlib's at the settings it
/// replaced.
@Suite struct PNGDeflateTests {
  /// What an image is made of: each exercises another path of the compressor.
  enum Content: CaseIterable {
    /// Random bytes: literals only, blocks stored when Huffman codes cannot win.
    case noise
    /// One colour: runs of zeros far longer than one match (258 bytes).
    case flat
    /// Vertical stripes of random colours: the pixel before repeats (distance 4).
    case stripes
    /// Horizontal bands with noise between them: runs crossing rows, literals around them.
    case mixed
    /// Few distinct byte values: short Huffman codes and codes limited to 15 bits.
    case skewed
  }

  static func image(_ content: Content, width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let colours = (0..<8).map { _ in (0..<4).map { _ in UInt8.random(in: 0...255, using: &random) } }
    for y in 0..<height {
      for x in 0..<width {
        let at = (y * width + x) * 4
        for channel in 0..<4 {
          switch content {
          case .noise: pixels[at + channel] = UInt8.random(in: 0...255, using: &random)
          case .flat: pixels[at + channel] = colours[0][channel]
          case .stripes: pixels[at + channel] = colours[(x / 3) % 8][channel]
          case .mixed:
            pixels[at + channel] =
              (y / 5) % 2 == 0 ? colours[y % 8][channel] : UInt8.random(in: 0...255, using: &random)
          case .skewed:
            // Geometric: value k about half as often as k - 1.
            var value: UInt8 = 0
            while value < 40, Bool.random(using: &random) { value += 1 }
            pixels[at + channel] = value
          }
        }
      }
    }
    return pixels
  }

  /// 160 generated images (every content, sizes from one pixel to several bands, straight and
  /// premultiplied) decode to their straight pixels, and encoding twice gives the same bytes.
  @Test func generatedImagesRoundTrip() throws {
    var random = SeededRandom(seed: 40)
    for index in 0..<160 {
      let content = Content.allCases[index % Content.allCases.count]
      let width = [1, 2, 3, 5, 64, 300][Int.random(in: 0..<6, using: &random)]
      let height = [1, 4, 17, 40, 90][Int.random(in: 0..<5, using: &random)]
      let pixels = Self.image(content, width: width, height: height, seed: UInt64(index))
      let straight = RGBAImage(width: width, height: height, pixels: pixels, alpha: .straight)
      let image =
        index % 2 == 0
        ? straight
        : RGBAImage(width: width, height: height, pixels: straight.premultipliedAlpha().pixels, alpha: .premultiplied)
      let encoded = try PNGCodec.encode(image)
      let decoded = try PNGCodec.decode(encoded, source: "\(content) \(width)x\(height) #\(index)")
      #expect(decoded == image.straightAlpha(), "\(content) \(width)x\(height) #\(index)")
      #expect(try PNGCodec.encode(image) == encoded)
    }
  }

  /// Random pixels cannot be compressed: the file stays within a few bytes per 64 KiB of the
  /// pixels themselves (the blocks are stored instead of coded).
  @Test func noiseIsStoredNotExpanded() throws {
    let width = 400
    let height = 300
    let image = RGBAImage(
      width: width, height: height, pixels: Self.image(.noise, width: width, height: height, seed: 7))
    let encoded = try PNGCodec.encode(image)
    let raw = height * (width * 4 + 1)
    #expect(encoded.count <= raw + raw / 1000 + 200, "\(encoded.count) bytes for \(raw) raw bytes")
    #expect(try PNGCodec.decode(encoded, source: "noise") == image)
  }

  /// On images like rendered maps (flat areas, edges, stripes, noise) the files are no larger
  /// than zlib's level 1 with `Z_RLE` and the `Up` filter made them.
  @Test func filesAreNoLargerThanZlibRunLength() throws {
    let zlibRunLength = PNGCodec.Settings(compressionLevel: 1, filters: 0x20, strategy: 3)
    for content in [Content.flat, .stripes, .mixed, .skewed] {
      let image = RGBAImage(
        width: 256, height: 256, pixels: Self.image(content, width: 256, height: 256, seed: 3))
      let ours = try PNGCodec.encode(image).count
      let zlib = try PNGCodec.encode(image, settings: zlibRunLength).count
      #expect(ours <= zlib, "\(content): \(ours) bytes against zlib's \(zlib)")
    }
  }
}
