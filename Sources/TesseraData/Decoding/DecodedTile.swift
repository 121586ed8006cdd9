import TesseraImage
import TesseraNumbers

/// A tile ready for rendering.
package enum DecodedTile: Sendable {
  case vector(VectorTile)
  /// A raster image (straight alpha).
  case raster(RGBAImage)
  case dem(DEMTile)

  /// Approximate memory held, in bytes (for the cache's budget).
  package var byteCount: Int {
    switch self {
    case .vector(let tile): return tile.byteCount
    case .raster(let image): return image.pixels.count + 64
    case .dem(let dem): return dem.heights.count * 4 + 64
    }
  }
}

/// Elevations of a DEM tile in metres, row by row from the north-west corner.
package struct DEMTile: Sendable, Equatable {
  package let width: Int
  package let height: Int
  /// width × height heights, metres.
  package let heights: [Float]

  package init(width: Int, height: Int, heights: [Float]) {
    precondition(heights.count == width * height, "DEM heights must fill width × height")
    self.width = width
    self.height = height
    self.heights = heights
  }

  /// Decodes elevations from an RGB image with the given encoding.
  package init(image: RGBAImage, encoding: DEMEncoding) {
    let pixels = image.straightAlpha().pixels
    var heights = [Float](repeating: 0, count: image.width * image.height)
    for index in heights.indices {
      let r = Double(pixels[index * 4])
      let g = Double(pixels[index * 4 + 1])
      let b = Double(pixels[index * 4 + 2])
      heights[index] = Float(encoding.height(red: r, green: g, blue: b))
    }
    self.init(width: image.width, height: image.height, heights: heights)
  }

  /// The height at column `x`, row `y` (clamped to the tile).
  package func height(x: Int, y: Int) -> Float {
    heights[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
  }

  /// The lowest and highest elevation.
  package var range: ClosedRange<Float> {
    (heights.min() ?? 0)...(heights.max() ?? 0)
  }
}

/// What a source's tiles are to be decoded as.
package enum TileContentKind: Sendable, Equatable, Hashable {
  case vector
  case raster
  case dem(DEMEncoding)

  /// The kind matching a source's metadata (DEM when it names an encoding).
  package init(metadata: TileSourceMetadata) {
    if let encoding = metadata.encoding, metadata.format.isRaster {
      self = .dem(encoding)
    } else {
      self = metadata.format == .mvt ? .vector : .raster
    }
  }
}

/// Decodes fetched tile bytes.
package enum TileDecoder {
  /// Decodes `bytes` as `kind`; images are limited to `limits`.
  package static func decode(
    _ bytes: [UInt8], as kind: TileContentKind, limits: DecodeLimits = DecodeLimits(maxPixels: 4096 * 4096)
  ) throws(TileDecodeError) -> DecodedTile {
    switch kind {
    case .vector:
      return .vector(try MVTDecoder.decode(bytes))
    case .raster, .dem:
      let image: RGBAImage
      do {
        image = try ImageCodec.decode(bytes, source: "tile", limits: limits)
      } catch let error as ImageError {
        throw TileDecodeError(reason: reason(error))
      } catch {
        throw TileDecodeError(reason: "\(error)")
      }
      if case .dem(let encoding) = kind { return .dem(DEMTile(image: image, encoding: encoding)) }
      return .raster(image)
    }
  }

  /// An image error's message without the source (the caller names source and tile).
  static func reason(_ error: ImageError) -> String {
    switch error {
    case .unknownFormat: return "not a PNG, JPEG or WebP image"
    case .decode(_, let format, let reason): return "\(format.rawValue.uppercased()): \(reason)"
    case .tooLarge(_, let width, let height, let limit): return "image of \(width)x\(height) exceeds \(limit) pixels"
    case .encode(_, let reason): return reason
    }
  }
}
