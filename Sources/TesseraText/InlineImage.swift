import TesseraData
import TesseraNumbers

/// An image of a label's text (`["image", name]` in a `format` expression), laid out in the
/// line like a glyph, as MapLibre does: its size in points (its pixels over its pixel ratio)
/// scaled by its section's `font-scale` relative to the label's `text-size`, so that at the
/// size it was laid out for it shows at its own size; its bottom on the baseline; lines with
/// images taller than them pushed down.
package struct InlineImage: Sendable, Hashable {
  /// Its name in the style's sprite.
  package var name: String
  /// Its size, points.
  package var width: Double
  package var height: Double

  package init(name: String, width: Double, height: Double) {
    self.name = name
    self.width = width
    self.height = height
  }

  /// The glyph key image items carry (they are not glyphs of any font).
  static let glyphKey = GlyphKey(font: -1, id: 0xE000)

  /// One image point in the label's layout units per point of `font-scale` (pixels at
  /// 24 px): the section's scale over the label's `textSize` (pixels) in ems.
  package func scale(sectionScale: Double, textSize: Double) -> Double {
    textSize > 0 ? sectionScale * TextLayout.oneEm / textSize : sectionScale
  }

  /// How far the image moves the pen before line breaking (pixels at 24 px): its width at
  /// its scale for a label `textSize` pixels high.
  package func breakingAdvance(sectionScale: Double, textSize: Double) -> Double {
    width * scale(sectionScale: sectionScale, textSize: textSize)
  }

  /// The image's box as glyph metrics (MapLibre Native's, in whole points): its size, the
  /// atlas padding of one texel as its left bearing, a top that puts its top edge where a
  /// glyph's border would be, and an advance of its width, or of its height when it stands
  /// upright in vertical text.
  package func metrics(vertical: Bool) -> GlyphMetrics {
    let wholeWidth = width.rounded(.towardZero)
    let wholeHeight = height.rounded(.towardZero)
    return GlyphMetrics(
      width: wholeWidth, height: wholeHeight, left: InlineImage.padding, top: -Double(SDFGlyph.border),
      advance: vertical ? wholeHeight : wholeWidth)
  }

  /// Texels of padding around each image in the icon atlas.
  package static let padding = 1.0
}
