import TesseraNumbers

/// An image of palette indices: one byte a pixel into a palette of at most 256 colours.
public struct IndexedImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// The palette: straight-alpha RGBA entries, four bytes each, at most 256 entries.
  public let palette: [UInt8]
  /// One palette index a pixel, rows top to bottom.
  public let indices: [UInt8]
  /// The index of the fully transparent entry, when the image has one.
  public let transparentIndex: Int?

  /// The number of palette entries.
  public var paletteCount: Int { palette.count / 4 }

  /// The image with every index replaced by its palette colour (straight alpha).
  public func expanded() -> RGBAImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for (offset, index) in indices.enumerated() {
      let entry = Int(index) * 4
      pixels[offset * 4] = palette[entry]
      pixels[offset * 4 + 1] = palette[entry + 1]
      pixels[offset * 4 + 2] = palette[entry + 2]
      pixels[offset * 4 + 3] = palette[entry + 3]
    }
    return RGBAImage(width: width, height: height, pixels: pixels, alpha: .straight)
  }
}

/// Reduces an image to a palette of at most 256 colours, for PNG8 and GIF.
///
/// An image with few enough distinct colours keeps them exactly. Otherwise colours are counted
/// at 5 bits per colour channel and 3 bits of alpha, and the counted colours are split by median
/// cut (the box with the most pixels times its longest side is halved at its pixel median
/// along that side) until there are as many boxes as colours allowed; each box's colour is the
/// mean of its pixels, and each counted colour takes the nearest palette entry. There is no
/// dithering, so flat map areas stay flat. Integer arithmetic only: the same image always gives
/// the same palette and indices.
public enum ColorQuantizer {
  /// How alpha is kept.
  public enum AlphaMode: Sendable {
    /// Palette entries carry any alpha (PNG8 with a tRNS chunk).
    case full
    /// Pixels with alpha below 128 share one fully transparent entry and all others are opaque
    /// (GIF, whose palette has one transparent index at most).
    case binary
  }

  /// Quantizes an image to at most `maxColors` (2…256) palette entries.
  public static func quantize(_ image: RGBAImage, maxColors: Int = 256, alpha mode: AlphaMode = .full)
    -> IndexedImage
  {
    precondition((2...256).contains(maxColors), "maxColors must be 2…256")
    let source = image.straightAlpha().pixels
    let pixelCount = image.width * image.height
    // Colours as 32-bit RGBA words, with alpha snapped first in binary mode.
    var colours = [UInt32](repeating: 0, count: pixelCount)
    var hasTransparent = false
    for pixel in 0..<pixelCount {
      let offset = pixel * 4
      var alpha = UInt32(source[offset + 3])
      if mode == .binary {
        if alpha < 128 {
          hasTransparent = true
          colours[pixel] = 0
          continue
        }
        alpha = 255
      }
      colours[pixel] =
        UInt32(source[offset]) << 24 | UInt32(source[offset + 1]) << 16 | UInt32(source[offset + 2]) << 8 | alpha
    }
    if mode == .binary && hasTransparent {
      // Entry 0 is the transparent one; the opaque colours get the rest.
      var opaque = colours.filter { $0 != 0 }
      if opaque.isEmpty { opaque = [0x0000_00FF] }
      let (palette, map) = reduce(opaque, limit: maxColors - 1)
      var indices = [UInt8](repeating: 0, count: pixelCount)
      for pixel in 0..<pixelCount where colours[pixel] != 0 {
        indices[pixel] = UInt8(map(colours[pixel]) + 1)
      }
      return IndexedImage(
        width: image.width, height: image.height, palette: [0, 0, 0, 0] + palette, indices: indices,
        transparentIndex: 0)
    }
    let (palette, map) = reduce(colours.isEmpty ? [0] : colours, limit: maxColors)
    let indices = colours.map { UInt8(map($0)) }
    let transparent = stride(from: 0, to: palette.count, by: 4).first { palette[$0 + 3] == 0 }.map { $0 / 4 }
    return IndexedImage(
      width: image.width, height: image.height, palette: palette, indices: indices, transparentIndex: transparent)
  }

  /// A palette of at most `limit` entries for the colours and the function that maps a colour
  /// of the list to its entry.
  private static func reduce(_ colours: [UInt32], limit: Int) -> (palette: [UInt8], map: (UInt32) -> Int) {
    // Exact when the colours are few.
    var exact: [UInt32: Int] = [:]
    for colour in colours where exact[colour] == nil {
      if exact.count == limit { break }
      exact[colour] = exact.count
    }
    if exact.count < limit || colours.allSatisfy({ exact[$0] != nil }) {
      let ordered = exact.sorted { $0.value < $1.value }.map(\.key)
      let palette = ordered.flatMap {
        [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)]
      }
      return (palette, { exact[$0]! })
    }
    var histogram = ColorHistogram(colours)
    let boxes = histogram.medianCut(into: limit)
    let palette = boxes.flatMap { histogram.mean(of: $0) }
    let entryOfBucket = histogram.nearestEntries(palette: palette)
    return (palette, { entryOfBucket[ColorHistogram.bucket(of: $0)] })
  }
}
