import TesseraImage
import TesseraTestSupport
import Testing

/// Bounded seeded mutation of valid images: every mutant must decode or throw ImageError,
/// never crash, hang or allocate beyond the limit.
@Suite struct DecoderFuzzTests {
  static let seeds: [(String, [UInt8])] = {
    let gradient = RGBAImage(width: 24, height: 17, pixels: Fixtures.gradient(width: 24, height: 17))
    return [
      ("png", try! PNGCodec.encode(gradient)), ("palette", Fixtures.palettePNG), ("grey16", Fixtures.gray16PNG),
      ("jpeg", try! JPEGCodec.encode(gradient)), ("progressive", Fixtures.progressiveJPEG),
      ("webp-lossless", try! WebPCodec.encode(gradient)), ("webp-lossy", try! WebPCodec.encode(gradient, quality: 50)),
      ("gif", try! GIFCodec.encode(gradient)), ("gif-interlaced", PaletteCodecTests.interlacedGIF),
      ("gif-animated", PaletteCodecTests.animatedGIF),
    ]
  }()

  @Test func mutatedImagesNeverCrash() {
    var random = SeededRandom(seed: 0x7E55E2A)
    var decoded = 0
    var rejected = 0
    for iteration in 0..<3000 {
      let (name, seed) = DecoderFuzzTests.seeds[iteration % DecoderFuzzTests.seeds.count]
      let mutant = random.mutate(seed)
      do {
        let image = try ImageCodec.decode(
          mutant, source: "\(name) mutant \(iteration)", limits: DecodeLimits(maxPixels: 1 << 20))
        #expect(image.pixels.count == image.width * image.height * 4)
        decoded += 1
      } catch is ImageError {
        rejected += 1
      } catch {
        Issue.record("\(name) mutant \(iteration): unexpected error type \(error)")
      }
    }
    #expect(decoded + rejected == 3000)
    #expect(rejected > 100, "mutations should break many images")
  }
}
