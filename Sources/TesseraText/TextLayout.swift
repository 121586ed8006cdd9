import TesseraNumbers

/// Names one glyph bitmap: a font (a font stack's glyph PBFs, or one face of a local font
/// file) and the glyph in it (the code point for PBFs, the glyph index for fonts).
package struct GlyphKey: Sendable, Hashable {
  package let font: Int32
  package let id: UInt32

  package init(font: Int32, id: UInt32) {
    self.font = font
    self.id = id
  }
}

/// The measures of a glyph in pixels at 24 px (one em), MapLibre's convention.
package struct GlyphMetrics: Sendable, Equatable {
  package var width: Double
  package var height: Double
  package var left: Double
  /// The ink's top, up from a line 24 px above the baseline.
  package var top: Double
  package var advance: Double

  package init(width: Double, height: Double, left: Double, top: Double, advance: Double) {
    self.width = width
    self.height = height
    self.left = left
    self.top = top
    self.advance = advance
  }
}

/// One glyph of a line in visual order, before positioning: what it is and how far it moves
/// the pen.
package struct LineItem: Sendable, Equatable {
  package var glyph: GlyphKey
  package var metrics: GlyphMetrics
  /// The section it belongs to.
  package var section: Int
  /// A shaper's shift of the glyph from the pen position, pixels at 24 px (x right, y down).
  package var offset: (x: Double, y: Double)
  /// Whether it stands upright in vertical text: it advances one em and is turned back
  /// upright when the label runs down a line.
  package var vertical = false
  /// For an image of the text (`["image", name]` in `format`): the image; ``metrics`` are then
  /// its box (see ``InlineImage/metrics(vertical:)``).
  package var image: InlineImage? = nil

  package init(glyph: GlyphKey, metrics: GlyphMetrics, section: Int, offset: (x: Double, y: Double) = (0, 0)) {
    self.glyph = glyph
    self.metrics = metrics
    self.section = section
    self.offset = offset
  }

  /// An image of the text in `section`, upright in vertical text when `vertical`.
  package init(image: InlineImage, section: Int, vertical: Bool) {
    self.init(glyph: InlineImage.glyphKey, metrics: image.metrics(vertical: vertical), section: section)
    self.image = image
    self.vertical = vertical
  }

  package static func == (a: LineItem, b: LineItem) -> Bool {
    a.glyph == b.glyph && a.metrics == b.metrics && a.section == b.section && a.offset == b.offset
      && a.vertical == b.vertical && a.image == b.image
  }
}

/// A glyph placed in a label: its pen position relative to the label's anchor, in pixels at
/// 24 px (x right, y down), and its section's scale.
package struct PositionedGlyph: Sendable, Equatable {
  package let glyph: GlyphKey
  package let metrics: GlyphMetrics
  package var x: Double
  package var y: Double
  package let scale: Double
  package let section: Int
  /// Upright in vertical text (see ``LineItem/vertical``).
  package var vertical = false
  /// For an image of the text: its name in the style's sprite (drawn from the icon atlas).
  package var image: String? = nil
  /// How far its line was pushed down by images taller than the line, or by scaled-up
  /// sections, whichever is more (pixels at 24 px; MapLibre's line offset, which centres
  /// images and scaled glyphs across vertical lines).
  package var lineOffset = 0.0
}

/// A laid-out label: its glyphs and the box they span around the anchor (pixels at 24 px).
package struct Shaping: Sendable, Equatable {
  package var glyphs: [PositionedGlyph]
  package var top: Double
  package var bottom: Double
  package var left: Double
  package var right: Double
  package var lineCount: Int

  package var isEmpty: Bool { glyphs.isEmpty }
  /// Whether any glyph stands upright in vertical text (MapLibre's `verticalizable`).
  package var isVerticalizable: Bool { glyphs.contains(where: \.vertical) }
}

/// Where a label lies around its anchor (`text-anchor`).
package enum TextAnchor: String, Sendable, CaseIterable {
  case center, left, right, top, bottom
  case topLeft = "top-left"
  case topRight = "top-right"
  case bottomLeft = "bottom-left"
  case bottomRight = "bottom-right"

  /// The share of the label's width left of the anchor: 0 (anchor at the left edge) … 1.
  package var horizontalAlign: Double {
    switch self {
    case .left, .topLeft, .bottomLeft: return 0
    case .right, .topRight, .bottomRight: return 1
    default: return 0.5
    }
  }

  /// The share of the label's height above the anchor: 0 (anchor at the top) … 1.
  package var verticalAlign: Double {
    switch self {
    case .top, .topLeft, .topRight: return 0
    case .bottom, .bottomLeft, .bottomRight: return 1
    default: return 0.5
    }
  }
}

/// How lines of a multi-line label line up (`text-justify`, resolved).
package enum TextJustification: Sendable, Hashable {
  case left, center, right

  /// The share of each line's shortfall put left of it.
  var factor: Double {
    switch self {
    case .left: return 0
    case .center: return 0.5
    case .right: return 1
    }
  }
}

/// MapLibre's layout of lines of glyphs into a label (`shapeLines`): lines trimmed and laid
/// left to right with letter spacing, justified, stacked `lineHeight` apart (taller for
/// sections scaled up) and the block aligned on the anchor.
package enum TextLayout {
  /// One em, pixels.
  package static let oneEm = 24.0
  /// MapLibre's baseline shift: the first line's pen y.
  static let yOffset = -17.0

  /// Lays out `lines` (visual order, each a run of glyphs); `scales` gives each section's
  /// scale; `spacing` (letter spacing) and `lineHeight` are in pixels at 24 px. Images are
  /// sized against `textSize` (`text-size` at the tile's zoom, pixels): drawn at that size,
  /// an image of scale 1 shows at its own size in points.
  package static func layout(
    _ lines: [[LineItem]], scales: [Double], spacing: Double, lineHeight: Double, anchor: TextAnchor,
    justify: TextJustification, textSize: Double = oneEm
  ) -> Shaping {
    var glyphs: [PositionedGlyph] = []
    var y = yOffset
    var maxLineLength = 0.0
    var maxLineHeight = 0.0
    for line in lines {
      let lineMaxScale = line.map { scales[$0.section] }.max() ?? 1
      // How far scaled-up sections push the baseline down.
      let maxLineOffset = (lineMaxScale - 1) * oneEm
      // How far images taller than the line push the whole line down.
      var lineOffset = 0.0
      if line.isEmpty {
        y += lineHeight
        continue
      }
      var x = 0.0
      var lastEnd = 0.0
      let lineStart = glyphs.count
      for item in line {
        var scale = scales[item.section]
        // Glyphs sit on the line's baseline, lower for smaller sections.
        var baselineOffset = (lineMaxScale - scale) * oneEm
        // Upright glyphs of vertical text take one em each.
        var advance = item.vertical ? oneEm : item.metrics.advance
        if let image = item.image {
          scale = image.scale(sectionScale: scale, textSize: textSize)
          // The image's bottom on the baseline.
          baselineOffset = maxLineOffset + oneEm - image.height * scale
          advance = item.metrics.advance
          let overhang = (item.vertical ? image.width : image.height) * scale - oneEm * lineMaxScale
          if overhang > 0 { lineOffset = max(lineOffset, overhang) }
        }
        var positioned = PositionedGlyph(
          glyph: item.glyph, metrics: item.metrics, x: x + item.offset.x * scale,
          y: y + baselineOffset + item.offset.y * scale, scale: scale, section: item.section,
          vertical: item.vertical)
        positioned.image = item.image?.name
        glyphs.append(positioned)
        lastEnd = x + item.metrics.advance * scale
        x += advance * scale + spacing
      }
      let lineLength = x - spacing
      maxLineLength = max(lineLength, maxLineLength)
      // Justify: shift the line by its share of the end of its last glyph (MapLibre's
      // justifyLine), and push it below any image taller than it.
      let indent = lastEnd * justify.factor
      for index in lineStart..<glyphs.count {
        glyphs[index].x -= indent
        glyphs[index].y += lineOffset
        glyphs[index].lineOffset = max(lineOffset, maxLineOffset)
      }
      let currentLineHeight = lineHeight * lineMaxScale + lineOffset
      y += currentLineHeight
      maxLineHeight = max(currentLineHeight, maxLineHeight)
    }
    // Align the block on the anchor (MapLibre's align).
    let lineCount = Double(lines.count)
    let height = y - yOffset
    let shiftX = (justify.factor - anchor.horizontalAlign) * maxLineLength
    let shiftY: Double
    if maxLineHeight != lineHeight {
      shiftY = -height * anchor.verticalAlign - yOffset
    } else {
      shiftY = (-anchor.verticalAlign * lineCount + 0.5) * lineHeight
    }
    for index in glyphs.indices {
      glyphs[index].x += shiftX
      glyphs[index].y += shiftY
    }
    let top = -anchor.verticalAlign * height
    let left = -anchor.horizontalAlign * maxLineLength
    return Shaping(
      glyphs: glyphs, top: top, bottom: top + height, left: left, right: left + maxLineLength, lineCount: lines.count)
  }
}
