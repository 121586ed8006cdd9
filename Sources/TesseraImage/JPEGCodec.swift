import CTesseraCodecs
import TesseraNumbers

/// JPEG decoding and encoding through libjpeg-turbo.
public enum JPEGCodec {
  /// Decodes JPEG bytes to opaque RGBA; `source` names the data in errors.
  public static func decode(
    _ bytes: [UInt8], source: String, limits: DecodeLimits = DecodeLimits()
  ) throws -> RGBAImage {
    var result = tessera_decoded_image()
    let status = bytes.withUnsafeBufferPointer { buffer in
      tessera_jpeg_decode(buffer.baseAddress, buffer.count, UInt64(limits.maxPixels), &result)
    }
    return try CodecResult.image(
      from: &result, status: status, format: .jpeg, source: source, limits: limits)
  }

  /// Encodes an image as a JPEG of `quality` (1–100). JPEG has no alpha channel, so
  /// transparent parts are composited over `matte` (white by default) first.
  public static func encode(_ image: RGBAImage, quality: Int = 90, matte: Color = .white, progressive: Bool = false)
    throws -> [UInt8]
  {
    let opaque = image.composited(over: matte)
    var result = tessera_encoded_bytes()
    let status = opaque.pixels.withUnsafeBufferPointer { buffer in
      tessera_jpeg_encode(
        buffer.baseAddress, UInt32(image.width), UInt32(image.height),
        Int32(min(max(quality, 1), 100)), progressive ? 1 : 0, &result)
    }
    return try CodecResult.bytes(from: &result, status: status, format: .jpeg)
  }
}
