import TesseraNumbers

/// How an image is written: a format, for PNG whether as a palette image of at most 256
/// colours ("PNG8"), and for JPEG and WebP the quality.
public struct ImageEncoding: Sendable, Hashable {
  /// The file format.
  public var format: ImageFormat
  /// For PNG: a palette image (colour type 3) rather than RGBA. GIF is always a palette image.
  public var palette: Bool
  /// JPEG quality 1…100 (nil = 90) or WebP quality (nil = lossless).
  public var quality: Int?
  /// For JPEG: progressive (the picture sharpens as it loads) rather than baseline.
  public var progressive = false

  /// An encoding of a format.
  public init(_ format: ImageFormat, palette: Bool = false, quality: Int? = nil) {
    self.format = format
    self.palette = palette
    self.quality = quality
  }

  /// Parses a name: `png`/`png32` (RGBA PNG), `png8` (palette PNG), `jpeg`/`jpg`, `webp`, `gif`.
  public init?(name: String) {
    switch name.lowercased() {
    case "png32": self.init(.png)
    case "png8": self.init(.png, palette: true)
    default:
      guard let format = ImageFormat(name: name) else { return nil }
      self.init(format)
    }
  }

  /// The names ``init(name:)`` accepts, for messages.
  public static let names = "png, png8, png32, jpeg, webp, gif"

  /// The media type (`Content-Type`).
  public var mimeType: String { format.mimeType }

  /// Encodes an image.
  public func encode(_ image: RGBAImage) throws -> [UInt8] {
    if format == .jpeg && progressive { return try JPEGCodec.encode(image, quality: quality ?? 90, progressive: true) }
    return try ImageCodec.encode(image, as: format, quality: quality, palette: palette)
  }
}
