import CFriBidi
import Foundation
import TesseraData
import TesseraNumbers

/// The coverage of laid-out text, drawn on the CPU from the glyphs' distance fields: for
/// pictures composed outside the GPU pass (info windows, attribution, the scale bar).
package struct TextMask: Sendable, Equatable {
  /// Size in pixels.
  package let width: Int
  package let height: Int
  /// Coverage 0…1 per pixel, rows top first.
  package var coverage: [Float]
  /// The layout point (pixels at 24 px, the shaping's coordinates) of the mask's top-left
  /// corner.
  package let origin: (x: Double, y: Double)
  /// Colour glyphs (emoji) drawn over the ink: premultiplied R, G, B, A (0…1) per pixel, rows
  /// top first; empty when the text has none.
  package var colorLayer: [Float] = []

  package static func == (a: TextMask, b: TextMask) -> Bool {
    a.width == b.width && a.height == b.height && a.coverage == b.coverage && a.origin == b.origin
      && a.colorLayer == b.colorLayer
  }

  /// The premultiplied colour (0…1) of pixel `index` with the ink in `ink` (straight R, G, B,
  /// 0…1, times `opacity`): colour glyphs over the inked coverage.
  package func premultiplied(_ index: Int, ink: (Double, Double, Double), opacity: Double = 1) -> (
    r: Double, g: Double, b: Double, a: Double
  ) {
    let coverage = Double(coverage[index]) * opacity
    guard !colorLayer.isEmpty else { return (ink.0 * coverage, ink.1 * coverage, ink.2 * coverage, coverage) }
    let r = Double(colorLayer[index * 4])
    let g = Double(colorLayer[index * 4 + 1])
    let b = Double(colorLayer[index * 4 + 2])
    let a = Double(colorLayer[index * 4 + 3])
    let under = coverage * (1 - a)
    return (r + ink.0 * under, g + ink.1 * under, b + ink.2 * under, a + under)
  }
}

package enum TextRasterizer {
  /// The glyphs of `shaping` at `pixelsPerUnit` mask pixels per layout pixel (font size in
  /// pixels / 24): each pixel samples the distance fields bilinearly at its centre and turns
  /// distance into coverage over ±0.6 pixel around the outline (192 of 255).
  package static func mask(_ shaping: Shaping, glyphs: GlyphStore, pixelsPerUnit: Double) -> TextMask {
    let border = Double(SDFGlyph.border)
    var placed: [(bitmap: SDFGlyph, x: Double, y: Double, scale: Double)] = []
    var pictures: [(glyph: ColorGlyph, x: Double, y: Double, scale: Double)] = []
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    for glyph in shaping.glyphs {
      if let picture = glyphs.colorGlyph(glyph.glyph) {
        let scale = glyph.scale * picture.scale
        let x = glyph.x + picture.left * glyph.scale
        let y = glyph.y - picture.top * glyph.scale
        pictures.append((picture, x, y, scale))
        minX = min(minX, x)
        minY = min(minY, y)
        maxX = max(maxX, x + Double(picture.width) * scale)
        maxY = max(maxY, y + Double(picture.height) * scale)
        continue
      }
      guard let bitmap = glyphs.bitmap(glyph.glyph), !bitmap.bitmap.isEmpty else { continue }
      let x = glyph.x + (glyph.metrics.left - border) * glyph.scale
      let y = glyph.y + (-glyph.metrics.top - border) * glyph.scale
      placed.append((bitmap, x, y, glyph.scale))
      minX = min(minX, x)
      minY = min(minY, y)
      maxX = max(maxX, x + Double(bitmap.width + 2 * SDFGlyph.border) * glyph.scale)
      maxY = max(maxY, y + Double(bitmap.height + 2 * SDFGlyph.border) * glyph.scale)
    }
    guard !placed.isEmpty || !pictures.isEmpty, pixelsPerUnit > 0, pixelsPerUnit.isFinite else {
      return TextMask(width: 0, height: 0, coverage: [], origin: (0, 0))
    }
    let width = min(Int(clamping: ((maxX - minX) * pixelsPerUnit).rounded(.up)) + 1, 8192)
    let height = min(Int(clamping: ((maxY - minY) * pixelsPerUnit).rounded(.up)) + 1, 8192)
    var coverage = [Float](repeating: 0, count: width * height)
    for glyph in placed {
      let columns = glyph.bitmap.width + 2 * SDFGlyph.border
      let rows = glyph.bitmap.height + 2 * SDFGlyph.border
      // Distance per mask pixel, as a share of the field's 0…1 range (255/8 per field pixel).
      let gamma = 0.6 / (8 * pixelsPerUnit * glyph.scale)
      let x0 = max(Int(clamping: ((glyph.x - minX) * pixelsPerUnit).rounded(.down)), 0)
      let y0 = max(Int(clamping: ((glyph.y - minY) * pixelsPerUnit).rounded(.down)), 0)
      let x1 = min(
        Int(clamping: ((glyph.x - minX + Double(columns) * glyph.scale) * pixelsPerUnit).rounded(.up)), width)
      let y1 = min(Int(clamping: ((glyph.y - minY + Double(rows) * glyph.scale) * pixelsPerUnit).rounded(.up)), height)
      guard x0 < x1, y0 < y1 else { continue }
      for row in y0..<y1 {
        let v = ((Double(row) + 0.5) / pixelsPerUnit + minY - glyph.y) / glyph.scale - 0.5
        for column in x0..<x1 {
          let u = ((Double(column) + 0.5) / pixelsPerUnit + minX - glyph.x) / glyph.scale - 0.5
          let distance = sample(glyph.bitmap.bitmap, columns: columns, rows: rows, u: u, v: v) / 255
          let alpha = smoothstep(0.75 - gamma, 0.75 + gamma, distance)
          let index = row * width + column
          if Float(alpha) > coverage[index] { coverage[index] = Float(alpha) }
        }
      }
    }
    var mask = TextMask(width: width, height: height, coverage: coverage, origin: (minX, minY))
    if !pictures.isEmpty {
      mask.colorLayer = [Float](repeating: 0, count: width * height * 4)
      for picture in pictures {
        ColorGlyphPainter.paint(
          picture.glyph, into: &mask.colorLayer, width: width, height: height,
          left: (picture.x - minX) * pixelsPerUnit, top: (picture.y - minY) * pixelsPerUnit,
          texelSize: picture.scale * pixelsPerUnit)
      }
    }
    return mask
  }

  /// Whether `text` reads right to left: its first strong character is Hebrew or Arabic
  /// (Unicode's paragraph direction, rules P2–P3).
  package static func isRightToLeft(_ text: String) -> Bool {
    for scalar in text.unicodeScalars {
      // FriBidi's type masks: strong letters (L, R, AL) carry 0x110; right-to-left ones 0x1.
      let type = UInt32(truncatingIfNeeded: fribidi_get_bidi_type(FriBidiChar(scalar.value)).rawValue)
      guard type & 0x110 == 0x110 else { continue }
      return type & 0x1 != 0
    }
    return false
  }

  private static func sample(_ field: [UInt8], columns: Int, rows: Int, u: Double, v: Double) -> Double {
    let cx = u.rounded(.down)
    let cy = v.rounded(.down)
    let fx = u - cx
    let fy = v - cy
    func texel(_ x: Int, _ y: Int) -> Double {
      guard x >= 0, y >= 0, x < columns, y < rows else { return 0 }
      return Double(field[y * columns + x])
    }
    let x = Int(clamping: cx)
    let y = Int(clamping: cy)
    let top = texel(x, y) * (1 - fx) + texel(x + 1, y) * fx
    let bottom = texel(x, y + 1) * (1 - fx) + texel(x + 1, y + 1) * fx
    return top * (1 - fy) + bottom * fy
  }

  private static func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
    let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
    return t * t * (3 - 2 * t)
  }
}
