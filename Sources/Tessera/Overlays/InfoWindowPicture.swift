import Foundation
import TesseraImage
import TesseraNumbers
import TesseraText

/// A picture drawn above the map at a screen point: an info window, whose tail tip (or a
/// custom picture's bottom centre) lies on the marker's info-window anchor.
struct OverlayPicture {
  /// Straight alpha, `scale` pixels per point.
  let image: RGBAImage
  let scale: Double
  /// The point of the picture placed on the screen point, in image pixels.
  let anchor: (x: Double, y: Double)
}

/// The SDK's default info window: a white rounded bubble with a soft shadow and a tail
/// pointing down at the marker, the title in bold above the snippet, both wrapped at
/// ``maximumTextWidth`` (inside words wider than that); a right-to-left title or snippet is
/// aligned right. Titles of more than ``titleLines`` lines or 150 characters and snippets of
/// more than ``snippetLines`` lines or 1,000 characters end in an ellipsis inside the bubble.
/// Sizes in points.
enum InfoWindowPainter {
  static let maximumTextWidth = 220.0
  static let paddingX = 12.0
  static let paddingY = 9.0
  static let titleSize = 15.0
  static let snippetSize = 13.0
  static let gap = 3.0
  static let titleLines = 4
  static let snippetLines = 12
  static let cornerRadius = 8.0
  static let tailWidth = 16.0
  static let tailHeight = 9.0
  /// Room around the bubble for its shadow.
  static let margin = 8.0
  static let titleColor = Color(r: 32, g: 33, b: 36)
  static let snippetColor = Color(r: 95, g: 99, b: 104)
  static let shadowColor = Color(red: 0, green: 0, blue: 0, alpha: 0.3)

  /// The info window of `title` and `snippet` at `scale` pixels per point; nil when both are
  /// empty (the SDK shows no info window then). `bubbleOffset` moves the bubble right of the
  /// tail (points; negative: left), as far as the tail stays under the bubble's straight edge.
  static func picture(
    title: String?, snippet: String?, scale: Double, glyphs: GlyphStore, bubbleOffset: Double = 0
  ) -> OverlayPicture? {
    let title = shortened(title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", to: 150)
    let snippet = shortened(snippet?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", to: 1000)
    guard !title.isEmpty || !snippet.isEmpty else { return nil }
    let blocks = [
      TextBlock(
        title, font: "Noto Sans Bold", size: titleSize, lines: titleLines, color: titleColor, scale: scale,
        glyphs: glyphs),
      TextBlock(
        snippet, font: "Noto Sans Regular", size: snippetSize, lines: snippetLines, color: snippetColor,
        scale: scale, glyphs: glyphs),
    ].compactMap { $0 }
    let textWidth = min(blocks.map(\.width).max() ?? 0, maximumTextWidth * scale)
    let textHeight = blocks.map(\.height).reduce(0, +) + gap * scale * Double(blocks.count - 1)
    let bubbleWidth = max(textWidth + 2 * paddingX * scale, (tailWidth + 2 * cornerRadius) * scale)
    let bubbleHeight = textHeight + 2 * paddingY * scale
    let margin = self.margin * scale
    let width = Int(clamping: (bubbleWidth + 2 * margin).rounded(.up))
    let height = Int(clamping: (bubbleHeight + tailHeight * scale + 2 * margin).rounded(.up))
    let bubble = (margin, margin, margin + bubbleWidth, margin + bubbleHeight)
    let radius = cornerRadius * scale
    let halfTail = tailWidth * scale / 2
    let offset = min(max(bubbleOffset * scale, -maximumOffset(bubbleWidth, scale)), maximumOffset(bubbleWidth, scale))
    let tipX = (bubble.0 + bubble.2) / 2 - offset
    let tipY = bubble.3 + tailHeight * scale
    func shape(_ x: Double, _ y: Double) -> Double {
      min(
        OverlayCanvas.roundedRectangle(x, y, bubble, radius: radius),
        OverlayCanvas.downwardTriangle(
          x, y, left: tipX - halfTail, right: tipX + halfTail, top: bubble.3 - 1, tipX: tipX, tipY: tipY))
    }
    var canvas = OverlayCanvas(width: width, height: height)
    canvas.shadow(
      shadowColor, radius: max(Int(clamping: (2 * scale).rounded()), 1), offsetY: 1.5 * scale, distance: shape)
    canvas.fill(Color(r: 255, g: 255, b: 255), distance: shape)
    var y = bubble.1 + paddingY * scale
    for block in blocks {
      let x = block.rightToLeft ? bubble.2 - paddingX * scale - block.width : bubble.0 + paddingX * scale
      canvas.draw(
        block.mask, color: block.color, x: Int(clamping: (x + block.maskOffset.x).rounded()),
        y: Int(clamping: (y + block.maskOffset.y).rounded()))
      y += block.height + gap * scale
    }
    return OverlayPicture(image: canvas.image, scale: scale, anchor: (tipX, tipY))
  }

  /// How far the bubble may move from the tail, pixels: until the tail reaches a corner.
  static func maximumOffset(_ bubbleWidth: Double, _ scale: Double) -> Double {
    max(bubbleWidth / 2 - (cornerRadius + tailWidth / 2) * scale, 0)
  }

  /// `text` cut to `limit` characters with an ellipsis, so a window stays a window.
  static func shortened(_ text: String, to limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }

  /// One paragraph laid out and drawn into a mask, with its size in pixels.
  struct TextBlock {
    let mask: TextMask
    /// From the block's top-left corner to the mask's, pixels.
    let maskOffset: (x: Double, y: Double)
    let width: Double
    let height: Double
    let rightToLeft: Bool
    let color: Color

    init?(
      _ text: String, font: String, size: Double, lines: Int, color: Color, scale: Double, glyphs: GlyphStore
    ) {
      guard !text.isEmpty else { return nil }
      self.color = color
      let unitsPerEm = TextLayout.oneEm
      let pixelsPerUnit = size * scale / unitsPerEm
      rightToLeft = TextRasterizer.isRightToLeft(text)
      let wrapped = InfoWindowText(
        font: font, maximumWidth: InfoWindowPainter.maximumTextWidth / size * unitsPerEm, maximumLines: lines,
        glyphs: glyphs
      ).wrapped(text)
      let shaping = glyphs.shape(
        StyledText(sections: [TextSection(text: wrapped)]), fontStack: [font],
        options: ShapingOptions(
          lineHeight: 1.3 * unitsPerEm, anchor: .topLeft, justify: rightToLeft ? .right : .left))
      guard !shaping.isEmpty else { return nil }
      mask = TextRasterizer.mask(shaping, glyphs: glyphs, pixelsPerUnit: pixelsPerUnit)
      width = (shaping.right - shaping.left) * pixelsPerUnit
      height = (shaping.bottom - shaping.top) * pixelsPerUnit
      maskOffset = ((mask.origin.x - shaping.left) * pixelsPerUnit, (mask.origin.y - shaping.top) * pixelsPerUnit)
    }
  }
}
