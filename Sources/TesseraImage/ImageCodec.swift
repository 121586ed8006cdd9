import TesseraNumbers

/// Format-independent entry points: decode whatever format the bytes are, encode to a format.
public enum ImageCodec {
  /// Decodes PNG, JPEG, WebP or GIF (its first frame) bytes (recognised by their magic number) to straight RGBA.
  ///
  /// - Parameter source: names the data in error messages (a path, a tile id).
  public static func decode(
    _ bytes: [UInt8], source: String, limits: DecodeLimits = DecodeLimits()
  ) throws -> RGBAImage {
    switch ImageFormat.sniff(bytes) {
    case .png: return try PNGCodec.decode(bytes, source: source, limits: limits)
    case .jpeg: return try JPEGCodec.decode(bytes, source: source, limits: limits)
    case .webp: return try WebPCodec.decode(bytes, source: source, limits: limits)
    case .gif: return try GIFCodec.decode(bytes, source: source, limits: limits)
    case nil: throw ImageError.unknownFormat(source: source)
    }
  }

  /// Encodes an image. `quality` applies to JPEG (default 90) and WebP (nil = lossless);
  /// `palette` makes a PNG a palette PNG of at most 256 colours ("PNG8"). GIF is always a
  /// palette image.
  public static func encode(_ image: RGBAImage, as format: ImageFormat, quality: Int? = nil, palette: Bool = false)
    throws -> [UInt8]
  {
    switch format {
    case .png: return palette ? try PNGCodec.encodePalette(image) : try PNGCodec.encode(image)
    case .gif: return try GIFCodec.encode(image)
    case .jpeg: return try JPEGCodec.encode(image, quality: quality ?? 90)
    case .webp: return try WebPCodec.encode(image, quality: quality)
    }
  }
}
