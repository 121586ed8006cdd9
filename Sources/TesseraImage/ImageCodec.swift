/// Format-independent entry points: decode whatever format the bytes are, encode to a format.
public enum ImageCodec {
  /// Decodes PNG, JPEG or WebP bytes (recognised by their magic number) to straight RGBA.
  ///
  /// - Parameter source: names the data in error messages (a path, a tile id).
  public static func decode(
    _ bytes: [UInt8], source: String, limits: DecodeLimits = DecodeLimits()
  ) throws -> RGBAImage {
    switch ImageFormat.sniff(bytes) {
    case .png: return try PNGCodec.decode(bytes, source: source, limits: limits)
    case .jpeg: return try JPEGCodec.decode(bytes, source: source, limits: limits)
    case .webp: return try WebPCodec.decode(bytes, source: source, limits: limits)
    case nil: throw ImageError.unknownFormat(source: source)
    }
  }

  /// Encodes an image. `quality` applies to JPEG (default 90) and WebP (nil = lossless).
  public static func encode(_ image: RGBAImage, as format: ImageFormat, quality: Int? = nil)
    throws -> [UInt8]
  {
    switch format {
    case .png: return try PNGCodec.encode(image)
    case .jpeg: return try JPEGCodec.encode(image, quality: quality ?? 90)
    case .webp: return try WebPCodec.encode(image, quality: quality)
    }
  }
}
