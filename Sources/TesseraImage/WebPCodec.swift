import CWebP
import TesseraNumbers

/// WebP decoding and encoding through libwebp.
public enum WebPCodec {
  /// Decodes WebP bytes (lossy or lossless, with or without alpha) to straight RGBA.
  public static func decode(
    _ bytes: [UInt8], source: String, limits: DecodeLimits = DecodeLimits()
  ) throws -> RGBAImage {
    var width: Int32 = 0
    var height: Int32 = 0
    let known = bytes.withUnsafeBufferPointer { buffer in
      WebPGetInfo(buffer.baseAddress, buffer.count, &width, &height)
    }
    guard known != 0 else {
      throw ImageError.decode(source: source, format: .webp, reason: "invalid WebP header")
    }
    guard Int(width) * Int(height) <= limits.maxPixels else {
      throw ImageError.tooLarge(
        source: source, width: Int(width), height: Int(height), limit: limits.maxPixels)
    }
    var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
    let decoded = bytes.withUnsafeBufferPointer { input in
      pixels.withUnsafeMutableBufferPointer { output in
        WebPDecodeRGBAInto(
          input.baseAddress, input.count, output.baseAddress, output.count, width * 4)
      }
    }
    guard decoded != nil else {
      throw ImageError.decode(
        source: source, format: .webp, reason: "corrupt or truncated WebP data")
    }
    return RGBAImage(width: Int(width), height: Int(height), pixels: pixels, alpha: .straight)
  }

  /// Encodes an image as WebP: lossless when `quality` is nil, else lossy at `quality` (1–100).
  public static func encode(_ image: RGBAImage, quality: Int? = nil) throws -> [UInt8] {
    let straight = image.straightAlpha()
    var output: UnsafeMutablePointer<UInt8>?
    let size = straight.pixels.withUnsafeBufferPointer { buffer in
      if let quality {
        return WebPEncodeRGBA(
          buffer.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
          Float(min(max(quality, 1), 100)), &output)
      }
      return WebPEncodeLosslessRGBA(
        buffer.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4),
        &output)
    }
    defer { WebPFree(output) }
    guard size > 0, let output else {
      throw ImageError.encode(format: .webp, reason: "libwebp could not encode the image")
    }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }
}
