import TesseraNumbers

/// Where colour glyphs (emoji) of labels drawn on the GPU lie: one RGBA atlas per glyph store,
/// each picture resampled once to ``ColorGlyphAtlas/texelsPerUnit`` texels per layout pixel
/// (48 per em) and packed in the order the caller asks, so the atlas is the same every run.
package enum ColorGlyphAtlas {
  /// Texels per layout pixel (pixels at 24 px): an emoji of a 24-pixel label is 48 texels
  /// wide at a device pixel ratio of 2, texel for pixel.
  package static let texelsPerUnit = 2.0

  /// The size of `glyph` in the atlas, texels.
  static func size(of glyph: ColorGlyph) -> (width: Int, height: Int) {
    let scale = glyph.scale * texelsPerUnit
    return (
      max(Int(clamping: (Double(glyph.width) * scale).rounded(.up)), 1),
      max(Int(clamping: (Double(glyph.height) * scale).rounded(.up)), 1)
    )
  }

  /// The picture resampled to its atlas size: premultiplied RGBA bytes.
  static func texels(of glyph: ColorGlyph) -> [UInt8] {
    let size = size(of: glyph)
    var layer = [Float](repeating: 0, count: size.width * size.height * 4)
    ColorGlyphPainter.paint(
      glyph, into: &layer, width: size.width, height: size.height, left: 0, top: 0,
      texelSize: glyph.scale * texelsPerUnit)
    return layer.map { UInt8(clamping: Int(clamping: ($0 * 255).rounded())) }
  }
}

extension GlyphStore {
  /// The atlas size of a colour glyph (texels, at ``ColorGlyphAtlas/texelsPerUnit``), without
  /// packing it; nil for glyphs that are not colour pictures.
  package func colorGlyphSize(_ key: GlyphKey) -> (width: Int, height: Int)? {
    colorGlyph(key).map(ColorGlyphAtlas.size)
  }

  /// Where a colour glyph lies in the colour atlas (packing it on first use); nil for glyphs
  /// that are not colour pictures or when the atlas is full.
  package func colorAtlasRect(_ key: GlyphKey) -> AtlasRect? {
    if let known = colorPositions(key) { return known }
    guard let glyph = colorGlyph(key) else { return nil }
    let size = ColorGlyphAtlas.size(of: glyph)
    let texels = ColorGlyphAtlas.texels(of: glyph)
    return packColorGlyph(key, width: size.width, height: size.height, texels: texels)
  }
}
