import TesseraNumbers

/// The encoded image formats Tessera reads and writes.
public enum ImageFormat: String, Sendable, CaseIterable {
  case png
  case jpeg
  case webp
  /// GIF: read (the first frame) and written (at most 256 colours, one transparent index).
  case gif

  /// The media type (`Content-Type`).
  public var mimeType: String {
    switch self {
    case .png: return "image/png"
    case .jpeg: return "image/jpeg"
    case .webp: return "image/webp"
    case .gif: return "image/gif"
    }
  }

  /// Recognises a format from the first bytes of a file (its magic number), or nil.
  public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
    let head = Array(bytes.prefix(12))
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
      return .webp
    }
    if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
    return nil
  }

  /// The format a file name's extension names (`.png`, `.jpg`/`.jpeg`, `.webp`, `.gif`), or nil.
  public static func fromExtension(of path: String) -> ImageFormat? {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    switch path[path.index(after: dot)...].lowercased() {
    case "png": return .png
    case "jpg", "jpeg": return .jpeg
    case "webp": return .webp
    case "gif": return .gif
    default: return nil
    }
  }

  /// Parses a format name as given on the command line (`png`, `jpeg`/`jpg`, `webp`, `gif`).
  public init?(name: String) {
    switch name.lowercased() {
    case "png": self = .png
    case "jpg", "jpeg": self = .jpeg
    case "webp": self = .webp
    case "gif": self = .gif
    default: return nil
    }
  }
}

/// Why an image could not be decoded or encoded.
public enum ImageError: Error, Equatable, CustomStringConvertible {
  /// The bytes are not in any supported format.
  case unknownFormat(source: String)
  /// The decoder rejected the data (corrupt, truncated, unsupported).
  case decode(source: String, format: ImageFormat, reason: String)
  /// The image is larger than the decoder's pixel limit.
  case tooLarge(source: String, width: Int, height: Int, limit: Int)
  /// The encoder failed.
  case encode(format: ImageFormat, reason: String)

  public var description: String {
    switch self {
    case .unknownFormat(let source):
      return "\(source): not a PNG, JPEG, WebP or GIF image (unrecognised first bytes)"
    case .decode(let source, let format, let reason):
      return "\(source): cannot decode \(format.rawValue.uppercased()): \(reason)"
    case .tooLarge(let source, let width, let height, let limit):
      return "\(source): image of \(width)x\(height) pixels exceeds the limit of \(limit) pixels"
    case .encode(let format, let reason):
      return "cannot encode \(format.rawValue.uppercased()): \(reason)"
    }
  }
}

/// Limits applied while decoding images from outside data.
public struct DecodeLimits: Sendable, Equatable {
  /// The largest number of pixels (width × height) a decoded image may have.
  public var maxPixels: Int

  /// Makes limits; the default (67,108,864 pixels = 8192²) bounds a decode to 256 MiB.
  public init(maxPixels: Int = 8192 * 8192) {
    self.maxPixels = maxPixels
  }
}
