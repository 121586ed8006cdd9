import CTesseraCodecs
import TesseraNumbers

/// GIF decoding (the first frame) and encoding (one image of at most 256 colours) through
/// giflib.
public enum GIFCodec {
  /// Decodes the first frame of a GIF to straight RGBA, on a transparent canvas of the GIF's
  /// screen size; `source` names the data in errors.
  public static func decode(
    _ bytes: [UInt8], source: String, limits: DecodeLimits = DecodeLimits()
  ) throws -> RGBAImage {
    var result = tessera_decoded_image()
    let status = bytes.withUnsafeBufferPointer { buffer in
      tessera_gif_decode(buffer.baseAddress, buffer.count, UInt64(limits.maxPixels), &result)
    }
    return try CodecResult.image(
      from: &result, status: status, format: .gif, source: source, limits: limits)
  }

  /// Encodes an image as a GIF89a: colours reduced by ``ColorQuantizer`` to 256, pixels with
  /// alpha below 128 drawn through the one transparent index.
  public static func encode(_ image: RGBAImage) throws -> [UInt8] {
    try encode(ColorQuantizer.quantize(image, alpha: .binary))
  }

  /// Encodes a palette image as a GIF89a; alphas of its palette other than the transparent
  /// entry's are ignored.
  public static func encode(_ image: IndexedImage) throws -> [UInt8] {
    var rgb = [UInt8]()
    rgb.reserveCapacity(image.paletteCount * 3)
    for entry in 0..<image.paletteCount { rgb += image.palette[entry * 4..<entry * 4 + 3] }
    var result = tessera_encoded_bytes()
    let status = image.indices.withUnsafeBufferPointer { indices in
      rgb.withUnsafeBufferPointer { palette in
        tessera_gif_encode(
          indices.baseAddress, UInt32(image.width), UInt32(image.height), palette.baseAddress,
          Int32(image.paletteCount), Int32(image.transparentIndex ?? -1), &result)
      }
    }
    return try CodecResult.bytes(from: &result, status: status, format: .gif)
  }
}
