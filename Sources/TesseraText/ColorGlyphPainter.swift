import TesseraNumbers

/// Draws colour glyph pictures into premultiplied RGBA layers on the CPU, resampled with a box
/// filter: each pixel averages the texels under it, so a 136-texel emoji drawn 20 pixels tall
/// stays smooth rather than sampled.
enum ColorGlyphPainter {
  /// Paints `glyph` over `layer` (premultiplied R, G, B, A, 0…1, `width` × `height` pixels)
  /// with its top-left corner at (`left`, `top`) pixels and each texel `texelSize` pixels wide.
  static func paint(
    _ glyph: ColorGlyph, into layer: inout [Float], width: Int, height: Int, left: Double, top: Double,
    texelSize: Double
  ) {
    guard texelSize > 0, texelSize.isFinite else { return }
    let x0 = max(Int(clamping: left.rounded(.down)), 0)
    let y0 = max(Int(clamping: top.rounded(.down)), 0)
    let x1 = min(Int(clamping: (left + Double(glyph.width) * texelSize).rounded(.up)), width)
    let y1 = min(Int(clamping: (top + Double(glyph.height) * texelSize).rounded(.up)), height)
    guard x0 < x1, y0 < y1 else { return }
    for row in y0..<y1 {
      let v0 = (Double(row) - top) / texelSize
      let v1 = (Double(row + 1) - top) / texelSize
      for column in x0..<x1 {
        let u0 = (Double(column) - left) / texelSize
        let u1 = (Double(column + 1) - left) / texelSize
        let texel = average(glyph, u: (u0, u1), v: (v0, v1))
        guard texel.3 > 0 else { continue }
        let index = (row * width + column) * 4
        let keep = 1 - Float(texel.3)
        layer[index] = Float(texel.0) + layer[index] * keep
        layer[index + 1] = Float(texel.1) + layer[index + 1] * keep
        layer[index + 2] = Float(texel.2) + layer[index + 2] * keep
        layer[index + 3] = Float(texel.3) + layer[index + 3] * keep
      }
    }
  }

  /// The mean premultiplied colour (0…1) of the texels over the pixel footprint `u` × `v`
  /// (texel units; texels outside the picture count as clear).
  static func average(_ glyph: ColorGlyph, u: (Double, Double), v: (Double, Double)) -> (
    Double, Double, Double, Double
  ) {
    let area = (u.1 - u.0) * (v.1 - v.0)
    guard area > 0 else { return (0, 0, 0, 0) }
    var sum = (0.0, 0.0, 0.0, 0.0)
    let firstRow = max(Int(clamping: v.0.rounded(.down)), 0)
    let lastRow = min(Int(clamping: v.1.rounded(.up)), glyph.height)
    let firstColumn = max(Int(clamping: u.0.rounded(.down)), 0)
    let lastColumn = min(Int(clamping: u.1.rounded(.up)), glyph.width)
    guard firstRow < lastRow, firstColumn < lastColumn else { return (0, 0, 0, 0) }
    for y in firstRow..<lastRow {
      let height = min(Double(y + 1), v.1) - max(Double(y), v.0)
      guard height > 0 else { continue }
      for x in firstColumn..<lastColumn {
        let weight = (min(Double(x + 1), u.1) - max(Double(x), u.0)) * height
        guard weight > 0 else { continue }
        let index = (y * glyph.width + x) * 4
        sum.0 += Double(glyph.pixels[index]) * weight
        sum.1 += Double(glyph.pixels[index + 1]) * weight
        sum.2 += Double(glyph.pixels[index + 2]) * weight
        sum.3 += Double(glyph.pixels[index + 3]) * weight
      }
    }
    let scale = 1 / (255 * area)
    return (sum.0 * scale, sum.1 * scale, sum.2 * scale, min(sum.3 * scale, 1))
  }
}
