import CFreeType
import TesseraNumbers

/// A glyph of a colour font (emoji) as a picture: premultiplied RGBA texels at the font's
/// own strike size, drawn scaled with the text instead of as a distance field.
package struct ColorGlyph: Sendable, Equatable {
  /// Size in texels.
  package let width: Int
  package let height: Int
  /// Premultiplied R, G, B, A bytes, rows top first.
  package let pixels: [UInt8]
  /// Layout pixels (at 24 px) per texel.
  package let scale: Double
  /// From the pen position to the picture's left edge, layout pixels (right positive).
  package let left: Double
  /// The picture's top edge, layout pixels up from the line glyph tops are measured from
  /// (``GlyphMetrics/top``'s convention).
  package let top: Double

  /// The largest picture kept, texels a side (Noto Color Emoji's are 136 × 128).
  static let maximumSide = 512
}

extension Engine {
  /// The picture of a glyph of a colour face: bitmap strikes (CBDT, sbix) as stored, layered
  /// colour outlines (COLR) as FreeType blends them; nil for other faces or empty glyphs.
  mutating func colorBitmap(_ face: FontFace, glyph: UInt32) -> ColorGlyph? {
    guard let handles = handles(face), colorFaces.contains(face),
      FT_Load_Glyph(handles.face, glyph, Engine.colorLoadFlags) == 0
    else { return nil }
    let slot = handles.face.pointee.glyph!
    if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP {
      guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
    }
    let bitmap = slot.pointee.bitmap
    let width = Int(bitmap.width)
    let rows = Int(bitmap.rows)
    guard width > 0, rows > 0, width <= ColorGlyph.maximumSide, rows <= ColorGlyph.maximumSide,
      let buffer = bitmap.buffer
    else { return nil }
    let pitch = Int(bitmap.pitch)
    guard pitch >= 0 else { return nil }
    var pixels = [UInt8](repeating: 0, count: width * rows * 4)
    let mode = Int32(bitmap.pixel_mode)
    for row in 0..<rows {
      for column in 0..<width {
        let index = (row * width + column) * 4
        if mode == Int32(FT_PIXEL_MODE_BGRA.rawValue) {
          let source = row * pitch + column * 4
          pixels[index] = buffer[source + 2]
          pixels[index + 1] = buffer[source + 1]
          pixels[index + 2] = buffer[source]
          pixels[index + 3] = buffer[source + 3]
        } else if mode == Int32(FT_PIXEL_MODE_GRAY.rawValue) {
          // A glyph of the face without colour: black ink of that coverage.
          pixels[index + 3] = buffer[row * pitch + column]
        }
      }
    }
    let scale = pixelScales[face] ?? 1
    return ColorGlyph(
      width: width, height: rows, pixels: pixels, scale: scale, left: Double(slot.pointee.bitmap_left) * scale,
      top: Double(slot.pointee.bitmap_top) * scale - Engine.ascender)
  }
}

extension FontLibrary {
  /// The picture of a shaped glyph of a colour face; nil for glyphs of other faces.
  package func colorGlyph(_ key: GlyphKey) -> ColorGlyph? {
    let index = Int(key.font - FontLibrary.firstFontID)
    guard catalog.colorFaces.contains(index), faces.indices.contains(index) else { return nil }
    let face = faces[index]
    return withEngine { $0.colorBitmap(face, glyph: key.id) }
  }

  /// Whether glyphs of font id `font` are pictures (a colour face's) rather than outlines.
  package func isColorFont(_ font: Int32) -> Bool {
    catalog.colorFaces.contains(Int(font - FontLibrary.firstFontID))
  }
}

/// Which characters are emoji shown in colour: Unicode's emoji presentation rules applied
/// to grapheme clusters, so that a flag (two regional indicators), a keycap, a skin-tone
/// modifier sequence or a ZWJ family is one cluster, drawn as one glyph of a colour font.
package enum EmojiText {
  /// The ranges of `codePoints` (indices) that are emoji clusters presented in colour.
  package static func clusters(_ codePoints: [UInt32]) -> [Range<Int>] {
    // Every emoji and every emoji selector lies above U+2000; most labels have none.
    guard codePoints.contains(where: { $0 >= 0x2000 }) else { return [] }
    var scalars = String.UnicodeScalarView()
    for codePoint in codePoints { scalars.append(Unicode.Scalar(codePoint) ?? "\u{FFFD}") }
    var ranges: [Range<Int>] = []
    var start = 0
    for character in String(scalars) {
      let count = character.unicodeScalars.count
      if isColorEmoji(character) { ranges.append(start..<(start + count)) }
      start += count
    }
    return ranges
  }

  /// Whether one grapheme cluster is an emoji shown in colour: an emoji whose default
  /// presentation is emoji, or any emoji asked for as emoji (U+FE0F), a keycap, a modifier
  /// sequence or a ZWJ sequence; never one asked for as text (U+FE0E).
  package static func isColorEmoji(_ character: Character) -> Bool {
    let scalars = character.unicodeScalars
    guard let first = scalars.first, first.properties.isEmoji, !scalars.contains("\u{FE0E}") else { return false }
    if first.properties.isEmojiPresentation { return true }
    return scalars.contains {
      $0 == "\u{FE0F}" || $0 == "\u{20E3}" || $0 == "\u{200D}" || $0.properties.isEmojiModifier
    }
  }
}
