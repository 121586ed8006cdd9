import CTesseraCodecs
import TesseraNumbers

/// PNG decoding through libpng, and encoding.
///
/// Encoding favours speed: with the default ``Settings/fast`` the `Up` filter on every row and
/// Tessera's own deflate compressor on all cores (``BandedPNGEncoder``); other settings go
/// through libpng and zlib (``Settings/small``: level 9 and adaptive filtering, for the
/// smallest files).
public enum PNGCodec {
  /// zlib/libpng settings of the encoder.
  public struct Settings: Sendable, Equatable {
    /// zlib compression level, 0 (store) ... 9 (smallest).
    public var compressionLevel: Int32
    /// libpng filter mask (`PNG_FILTER_*` bits).
    public var filters: Int32
    /// zlib strategy (`Z_DEFAULT_STRATEGY` = 0, `Z_FILTERED` = 1, `Z_RLE` = 3).
    public var strategy: Int32

    /// Fast settings used for render output (``BandedPNGEncoder``; the values say what it
    /// resembles in zlib terms: level 1, `Up` filter (0x20), `Z_RLE` (3)).
    public static let fast = Settings(compressionLevel: 1, filters: 0x20, strategy: 3)
    /// Small files: level 9, all filters (0xF8), default strategy.
    public static let small = Settings(compressionLevel: 9, filters: 0xF8, strategy: 0)

    /// Makes settings from raw zlib/libpng values.
    public init(compressionLevel: Int32, filters: Int32, strategy: Int32) {
      self.compressionLevel = compressionLevel
      self.filters = filters
      self.strategy = strategy
    }
  }

  /// Decodes PNG bytes to straight RGBA; `source` names the data in errors.
  public static func decode(
    _ bytes: [UInt8], source: String, limits: DecodeLimits = DecodeLimits()
  ) throws -> RGBAImage {
    var result = tessera_decoded_image()
    let status = bytes.withUnsafeBufferPointer { buffer in
      tessera_png_decode(buffer.baseAddress, buffer.count, UInt64(limits.maxPixels), &result)
    }
    return try CodecResult.image(
      from: &result, status: status, format: .png, source: source, limits: limits)
  }

  /// Encodes an image as an RGBA PNG (premultiplied images are converted to straight alpha).
  public static func encode(_ image: RGBAImage, settings: Settings = .fast) throws -> [UInt8] {
    if settings == .fast { return try BandedPNGEncoder.encode(image) }
    let straight = image.straightAlpha()
    var result = tessera_encoded_bytes()
    let status = straight.pixels.withUnsafeBufferPointer { buffer in
      tessera_png_encode(
        buffer.baseAddress, UInt32(image.width), UInt32(image.height),
        tessera_png_settings(
          compression_level: settings.compressionLevel, filters: settings.filters,
          strategy: settings.strategy),
        &result)
    }
    return try CodecResult.bytes(from: &result, status: status, format: .png)
  }
}

extension PNGCodec {
  /// Settings for palette images: zlib level 6, no filter (filters rarely help indices); level 9
  /// doubles the time for files 8% smaller.
  public static let paletteSettings = Settings(compressionLevel: 6, filters: 0x08, strategy: 0)

  /// Encodes an image as a palette PNG ("PNG8"): colours reduced by ``ColorQuantizer`` to at
  /// most 256 entries, alphas kept in a tRNS chunk.
  public static func encodePalette(_ image: RGBAImage) throws -> [UInt8] {
    try encode(ColorQuantizer.quantize(image, alpha: .full))
  }

  /// Encodes a palette image as a PNG of colour type palette, 8 bits a pixel.
  public static func encode(_ image: IndexedImage, settings: Settings = paletteSettings) throws -> [UInt8] {
    var result = tessera_encoded_bytes()
    let status = image.indices.withUnsafeBufferPointer { indices in
      image.palette.withUnsafeBufferPointer { palette in
        tessera_png_encode_indexed(
          indices.baseAddress, UInt32(image.width), UInt32(image.height), palette.baseAddress,
          Int32(image.paletteCount),
          tessera_png_settings(
            compression_level: settings.compressionLevel, filters: settings.filters, strategy: settings.strategy),
          &result)
      }
    }
    return try CodecResult.bytes(from: &result, status: status, format: .png)
  }
}

/// Turns the C shim's results into Swift values, freeing the C memory.
enum CodecResult {
  static func image(
    from result: inout tessera_decoded_image, status: Int32, format: ImageFormat, source: String,
    limits: DecodeLimits
  ) throws -> RGBAImage {
    if status == TESSERA_CODEC_TOO_LARGE {
      throw ImageError.tooLarge(
        source: source, width: Int(result.width), height: Int(result.height),
        limit: limits.maxPixels)
    }
    guard status == 0, let pointer = result.pixels else {
      throw ImageError.decode(source: source, format: format, reason: errorText(&result.error))
    }
    defer { tessera_codec_free(pointer) }
    let width = Int(result.width)
    let height = Int(result.height)
    let pixels = Array(UnsafeBufferPointer(start: pointer, count: width * height * 4))
    return RGBAImage(width: width, height: height, pixels: pixels, alpha: .straight)
  }

  static func bytes(from result: inout tessera_encoded_bytes, status: Int32, format: ImageFormat)
    throws -> [UInt8]
  {
    defer { tessera_codec_free(result.bytes) }
    guard status == 0, let pointer = result.bytes else {
      throw ImageError.encode(format: format, reason: errorText(&result.error))
    }
    return Array(UnsafeBufferPointer(start: pointer, count: result.size))
  }

  static func errorText<T>(_ tuple: inout T) -> String {
    withUnsafeBytes(of: &tuple) { raw in
      let bytes = raw.prefix { $0 != 0 }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
