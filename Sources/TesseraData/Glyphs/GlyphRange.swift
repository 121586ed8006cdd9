import TesseraNumbers

/// One glyph as a signed-distance field, with its metrics: what MapLibre glyph PBFs hold and
/// what Tessera rasterises from local fonts.
package struct SDFGlyph: Sendable, Equatable {
  /// The code point (PBF glyphs) or font glyph index (shaped local fonts).
  package let id: UInt32
  /// The distance field, `(width + 2·border) × (height + 2·border)` bytes, rows top first;
  /// 192 on the outline, higher inside (255/8 per pixel, MapLibre's 8-pixel radius). Empty for blank glyphs (spaces).
  package let bitmap: [UInt8]
  /// The glyph's ink size without the border, pixels at 24 px.
  package let width: Int
  package let height: Int
  /// From the pen position to the ink's left edge, pixels (right positive).
  package let left: Int
  /// The ink's top edge, pixels up from a line 24 px above the baseline (so usually
  /// negative): the glyph PBFs' convention.
  package let top: Int
  /// Pen advance, pixels at 24 px.
  package let advance: Double

  /// Pixels of distance field around the ink (MapLibre's glyph PBFs: 3).
  package static let border = 3

  package init(id: UInt32, bitmap: [UInt8], width: Int, height: Int, left: Int, top: Int, advance: Double) {
    self.id = id
    self.bitmap = bitmap
    self.width = width
    self.height = height
    self.left = left
    self.top = top
    self.advance = advance
  }

  /// The bitmap's size with the border.
  package var bitmapSize: (width: Int, height: Int) {
    bitmap.isEmpty ? (0, 0) : (width + 2 * SDFGlyph.border, height + 2 * SDFGlyph.border)
  }
}

/// A glyph PBF that cannot be used.
package struct GlyphError: Error, Equatable, CustomStringConvertible {
  /// The file or URL.
  package let source: String
  package let reason: String

  package init(source: String, reason: String) {
    self.source = source
    self.reason = reason
  }

  package var description: String { "\(source): \(reason)" }
}

/// The glyphs of one 256-code-point range of a font stack, decoded from a MapLibre glyph PBF
/// (`glyphs { stacks { name, range, glyphs { id, bitmap, width, height, left, top, advance } } }`).
package enum GlyphRangeDecoder {
  /// The largest glyph side accepted, pixels (real ones at 24 px are far smaller).
  package static let maximumGlyphSide = 255

  /// Decodes `bytes`; `source` names the file in errors. Glyphs outside the 256-code-point
  /// range starting at `rangeStart` are kept too (MapLibre keeps what the file holds).
  package static func decode(_ bytes: [UInt8], source: String) throws(GlyphError) -> [UInt32: SDFGlyph] {
    do {
      return try bytes.withUnsafeBytes { buffer throws(ProtobufError) in
        var glyphs: [UInt32: SDFGlyph] = [:]
        var reader = ProtobufReader(buffer)
        while !reader.isAtEnd {
          let key = try reader.readKey()
          guard key.field == 1, key.wireType == .lengthDelimited else {
            try reader.skip(key.wireType)
            continue
          }
          var stack = ProtobufReader(buffer, range: try reader.readLengthDelimited())
          while !stack.isAtEnd {
            let stackKey = try stack.readKey()
            guard stackKey.field == 3, stackKey.wireType == .lengthDelimited else {
              try stack.skip(stackKey.wireType)
              continue
            }
            let glyph = try decodeGlyph(buffer, range: try stack.readLengthDelimited())
            glyphs[glyph.id] = glyph
          }
        }
        return glyphs
      }
    } catch {
      throw GlyphError(source: source, reason: "corrupt glyph PBF: \(error)")
    }
  }

  private static func decodeGlyph(_ buffer: UnsafeRawBufferPointer, range: Range<Int>) throws(ProtobufError)
    -> SDFGlyph
  {
    var reader = ProtobufReader(buffer, range: range)
    var id: UInt64?
    var bitmap: Range<Int>?
    var width: UInt64 = 0
    var height: UInt64 = 0
    var left: Int64 = 0
    var top: Int64 = 0
    var advance: UInt64 = 0
    while !reader.isAtEnd {
      let key = try reader.readKey()
      switch (key.field, key.wireType) {
      case (1, .varint): id = try reader.readVarint()
      case (2, .lengthDelimited): bitmap = try reader.readLengthDelimited()
      case (3, .varint): width = try reader.readVarint()
      case (4, .varint): height = try reader.readVarint()
      case (5, .varint): left = try reader.readSignedVarint()
      case (6, .varint): top = try reader.readSignedVarint()
      case (7, .varint): advance = try reader.readVarint()
      default: try reader.skip(key.wireType)
      }
    }
    guard let id, id <= 0x10FFFF else {
      throw ProtobufError(offset: range.lowerBound, reason: "glyph without a valid id")
    }
    guard width <= UInt64(maximumGlyphSide), height <= UInt64(maximumGlyphSide), advance <= 10_000,
      abs(left) <= 10_000, abs(top) <= 10_000
    else {
      throw ProtobufError(offset: range.lowerBound, reason: "glyph \(id): metrics out of range")
    }
    var pixels: [UInt8] = []
    if let bitmap, width > 0, height > 0 {
      let expected = (Int(width) + 2 * SDFGlyph.border) * (Int(height) + 2 * SDFGlyph.border)
      guard bitmap.count == expected else {
        throw ProtobufError(
          offset: bitmap.lowerBound,
          reason: "glyph \(id): bitmap of \(bitmap.count) bytes, expected \(expected) for \(width)×\(height)")
      }
      pixels = Array(buffer[bitmap])
    }
    return SDFGlyph(
      id: UInt32(id), bitmap: pixels, width: pixels.isEmpty ? 0 : Int(width), height: pixels.isEmpty ? 0 : Int(height),
      left: Int(left), top: Int(top), advance: Double(advance))
  }
}
