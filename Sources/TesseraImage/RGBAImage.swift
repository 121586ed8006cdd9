import TesseraNumbers

/// How the colour channels of an ``RGBAImage`` relate to its alpha channel.
public enum AlphaRepresentation: String, Sendable, Equatable {
  /// Colour channels are independent of alpha (what PNG, WebP and JPEG files store).
  case straight
  /// Colour channels are already multiplied by alpha (what the GPU blends and reads back).
  case premultiplied
}

/// An 8-bit RGBA raster, rows from top to bottom, four bytes per pixel, no row padding.
///
/// The pixel buffer always holds `width * height * 4` bytes. ``alpha`` says whether the colour
/// channels are premultiplied; encoders convert to straight alpha as the file formats require.
public struct RGBAImage: Sendable, Equatable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// The pixels: R, G, B, A bytes per pixel, row after row from the top.
  public var pixels: [UInt8]
  /// Whether ``pixels`` holds straight or premultiplied colour.
  public var alpha: AlphaRepresentation

  /// Makes an image from existing pixels; traps if the buffer size does not match.
  public init(width: Int, height: Int, pixels: [UInt8], alpha: AlphaRepresentation = .straight) {
    precondition(width >= 0 && height >= 0, "image size must not be negative")
    precondition(pixels.count == width * height * 4, "pixel buffer must hold width*height*4 bytes")
    self.width = width
    self.height = height
    self.pixels = pixels
    self.alpha = alpha
  }

  /// Makes an image filled with one colour (straight alpha).
  public init(width: Int, height: Int, fill: Color = .transparent) {
    let rgba = fill.rgba8
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    pixels.withUnsafeMutableBufferPointer { buffer in
      for index in stride(from: 0, to: buffer.count, by: 4) {
        buffer[index] = rgba.0
        buffer[index + 1] = rgba.1
        buffer[index + 2] = rgba.2
        buffer[index + 3] = rgba.3
      }
    }
    self.init(width: width, height: height, pixels: pixels, alpha: .straight)
  }

  /// The four bytes of the pixel at column `x`, row `y` (0 = top), as stored.
  public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let index = (y * width + x) * 4
    return (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
  }

  /// Sets the four bytes of the pixel at column `x`, row `y`, as stored.
  public mutating func setPixel(x: Int, y: Int, _ value: (UInt8, UInt8, UInt8, UInt8)) {
    let index = (y * width + x) * 4
    pixels[index] = value.0
    pixels[index + 1] = value.1
    pixels[index + 2] = value.2
    pixels[index + 3] = value.3
  }

  /// Whether every pixel's alpha is 255 (the same pixels then in either alpha representation).
  public var isOpaque: Bool {
    pixels.withUnsafeBufferPointer { buffer in
      var index = 3
      while index < buffer.count {
        // Blocks of 1,024 pixels without a branch per pixel.
        let end = min(index + 4 * 1024, buffer.count)
        var alphas: UInt8 = 0xFF
        while index < end {
          alphas &= buffer[index]
          index += 4
        }
        guard alphas == 0xFF else { return false }
      }
      return true
    }
  }

  /// This image with straight alpha (colour divided by alpha, rounded to nearest). An opaque
  /// image keeps its pixels (shared, not copied).
  public func straightAlpha() -> RGBAImage {
    guard alpha == .premultiplied else { return self }
    var copy = self
    guard !isOpaque else {
      copy.alpha = .straight
      return copy
    }
    copy.pixels.withUnsafeMutableBufferPointer { buffer in
      for index in stride(from: 0, to: buffer.count, by: 4) {
        let a = UInt32(buffer[index + 3])
        if a == 255 { continue }
        if a == 0 {
          buffer[index] = 0
          buffer[index + 1] = 0
          buffer[index + 2] = 0
          continue
        }
        for channel in 0..<3 {
          let value = (UInt32(buffer[index + channel]) * 255 + a / 2) / a
          buffer[index + channel] = UInt8(min(value, 255))
        }
      }
    }
    copy.alpha = .straight
    return copy
  }

  /// This image with premultiplied alpha (colour times alpha / 255, rounded to nearest). An
  /// opaque image keeps its pixels (shared, not copied).
  public func premultipliedAlpha() -> RGBAImage {
    guard alpha == .straight else { return self }
    var copy = self
    guard !isOpaque else {
      copy.alpha = .premultiplied
      return copy
    }
    copy.pixels.withUnsafeMutableBufferPointer { buffer in
      for index in stride(from: 0, to: buffer.count, by: 4) {
        let a = UInt32(buffer[index + 3])
        if a == 255 { continue }
        for channel in 0..<3 {
          buffer[index + channel] = UInt8((UInt32(buffer[index + channel]) * a + 127) / 255)
        }
      }
    }
    copy.alpha = .premultiplied
    return copy
  }

  /// This image composited over an opaque colour: every pixel becomes opaque (straight alpha).
  public func composited(over background: Color) -> RGBAImage {
    let premultiplied = premultipliedAlpha()
    let base = background.rgba8
    var pixels = premultiplied.pixels
    pixels.withUnsafeMutableBufferPointer { buffer in
      for index in stride(from: 0, to: buffer.count, by: 4) {
        let inverse = 255 - UInt32(buffer[index + 3])
        buffer[index] = UInt8(UInt32(buffer[index]) + (UInt32(base.0) * inverse + 127) / 255)
        buffer[index + 1] = UInt8(UInt32(buffer[index + 1]) + (UInt32(base.1) * inverse + 127) / 255)
        buffer[index + 2] = UInt8(UInt32(buffer[index + 2]) + (UInt32(base.2) * inverse + 127) / 255)
        buffer[index + 3] = 255
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels, alpha: .straight)
  }

  /// Whether every pixel has the same four bytes.
  public var isUniform: Bool {
    guard pixels.count >= 4 else { return true }
    return pixels.withUnsafeBufferPointer { buffer in
      let first = (buffer[0], buffer[1], buffer[2], buffer[3])
      for index in stride(from: 4, to: buffer.count, by: 4)
      where buffer[index] != first.0 || buffer[index + 1] != first.1
        || buffer[index + 2] != first.2 || buffer[index + 3] != first.3
      {
        return false
      }
      return true
    }
  }
}

extension RGBAImage {
  /// The `width × height` pixels whose top-left corner is (`x`, `y`); parts outside the image
  /// are transparent.
  public func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let columns = max(0, min(x + width, self.width) - max(x, 0))
    if columns > 0 {
      for row in 0..<height {
        let sourceY = y + row
        guard sourceY >= 0, sourceY < self.height else { continue }
        let source = (sourceY * self.width + max(x, 0)) * 4
        let target = (row * width + max(x, 0) - x) * 4
        pixels.replaceSubrange(target..<target + columns * 4, with: self.pixels[source..<source + columns * 4])
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels, alpha: alpha)
  }
}
