import Foundation
import TesseraImage
import TesseraNumbers
import TesseraRender
import TesseraText

/// What a map credits in its bottom-right corner (the SDK's legal text).
public enum Attribution: Sendable, Equatable {
  /// The attribution of the sources drawn: the style source's `attribution`, else the
  /// source's own (TileJSON `attribution`, MBTiles and PMTiles metadata), links reduced to
  /// their text. Nothing when no source has one (the synthetic demo city).
  case sources
  /// No attribution.
  case off
  /// This text instead of the sources'.
  case text(String)
}

/// The small pictures in the view's corners, inside the padding as the SDK moves its legal
/// text and scale with padding: the attribution (bottom right) and the scale bar (bottom
/// left). Sizes in points.
enum MapOrnaments {
  static let textSize = 10.0
  static let textColor = Color(r: 60, g: 64, b: 67)
  static let backing = Color(red: 1, green: 1, blue: 1, alpha: 0.72)
  static let inset = 3.0
  static let margin = 2.0

  /// The characters scale bar labels are written with.
  static let scaleBarCharacters = "0123456789. kmfti"

  /// Between the credits of different sources, as MapLibre's attribution control writes them.
  static let creditSeparator = " | "

  /// The attribution line `attribution` draws over `styleRenderer`'s sources; nil when there
  /// is none.
  static func attributionText(_ attribution: Attribution, styleRenderer: StyleRenderer?) -> String? {
    switch attribution {
    case .off: return nil
    case .text(let text):
      let plain = plainText(text)
      return plain.isEmpty ? nil : plain
    case .sources:
      guard let styleRenderer else { return nil }
      var seen = Set<String>()
      var parts: [String] = []
      for id in styleRenderer.sources.keys.sorted() {
        let declared = styleRenderer.style.sources[id]?.attribution
        let own = styleRenderer.sources[id]?.bound.source.metadata.attribution
        let text = plainText(declared ?? own ?? "")
        // Sources often repeat one another's credits; each is written once.
        if !text.isEmpty, seen.insert(text).inserted { parts.append(text) }
      }
      return parts.isEmpty ? nil : parts.joined(separator: creditSeparator)
    }
  }

  /// The font stack ornaments are written in.
  static let fontStack = ["Noto Sans Regular"]

  /// Starts making the distance fields of the glyphs of `texts` in the fonts of `folders` on
  /// another thread, and returns at once: FreeType's SDF renderer takes milliseconds a glyph,
  /// and the library keeps them, so a map's first frame, drawing its ornaments after its read
  /// back, finds them made. Changes no pixel: the glyphs are the ones the frame would make.
  static func prepareGlyphs(of texts: [String], fontFolders folders: [String]) {
    guard !texts.isEmpty else { return }
    DispatchQueue.global(qos: .userInitiated).async {
      let glyphs = GlyphStore(loader: nil, fonts: FontLibraries.library(folders: folders))
      for text in texts {
        let shaping = glyphs.shape(
          StyledText(sections: [TextSection(text: text)]), fontStack: fontStack,
          options: ShapingOptions(lineHeight: 1.2 * TextLayout.oneEm, anchor: .topLeft))
        for glyph in shaping.glyphs { _ = glyphs.bitmap(glyph.glyph) }
      }
    }
  }

  /// `html` as plain text: tags dropped (a link becomes its text), the common entities
  /// decoded, runs of white space joined.
  static func plainText(_ html: String) -> String {
    var text = ""
    var inTag = false
    for character in html {
      if character == "<" {
        inTag = true
      } else if character == ">" && inTag {
        inTag = false
      } else if !inTag {
        text.append(character)
      }
    }
    let entities = [
      ("&copy;", "©"), ("&#169;", "©"), ("&reg;", "®"), ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"),
      ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&"),
    ]
    for (entity, replacement) in entities { text = text.replacingOccurrences(of: entity, with: replacement) }
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The attribution line: small grey text on a translucent white backing, wrapped (right
  /// aligned) at `maximumWidth` points.
  static func attribution(_ text: String, maximumWidth: Double, scale: Double, glyphs: GlyphStore) -> RGBAImage? {
    let pixelsPerUnit = textSize * scale / TextLayout.oneEm
    let shaping = glyphs.shape(
      StyledText(sections: [TextSection(text: text)]), fontStack: fontStack,
      options: ShapingOptions(
        maxWidth: max(maximumWidth - 2 * inset, textSize) / textSize * TextLayout.oneEm,
        lineHeight: 1.2 * TextLayout.oneEm, anchor: .topLeft, justify: .right))
    guard !shaping.isEmpty else { return nil }
    let mask = TextRasterizer.mask(shaping, glyphs: glyphs, pixelsPerUnit: pixelsPerUnit)
    let width = (shaping.right - shaping.left) * pixelsPerUnit + 2 * inset * scale
    let height = (shaping.bottom - shaping.top) * pixelsPerUnit + 2 * inset * scale * 0.5
    var canvas = OverlayCanvas(width: Int(clamping: width.rounded(.up)), height: Int(clamping: height.rounded(.up)))
    let box = (0.0, 0.0, Double(canvas.width), Double(canvas.height))
    canvas.fill(backing) { x, y in OverlayCanvas.roundedRectangle(x, y, box, radius: 2 * scale) }
    canvas.draw(
      mask, color: textColor,
      x: Int(clamping: ((mask.origin.x - shaping.left) * pixelsPerUnit + inset * scale).rounded()),
      y: Int(clamping: ((mask.origin.y - shaping.top) * pixelsPerUnit + inset * scale * 0.5).rounded()))
    return canvas.image
  }

  /// A length of at most `maximum` that reads well: 1, 2 or 5 times a power of ten.
  static func roundLength(below maximum: Double) -> Double {
    guard maximum > 0, maximum.isFinite else { return 0 }
    let power = pow(10, (log10(maximum)).rounded(.down))
    for step in [5.0, 2.0, 1.0] where step * power <= maximum { return step * power }
    return power
  }

  /// The scale bar for `metersPerPoint` at the target: one line with a tick up at a round
  /// number of metres (kilometres from 1 km), labelled above, and a tick down at a round
  /// number of feet (miles from 1 mi), labelled below; at most `maximumLength` points long.
  static func scaleBar(metersPerPoint: Double, maximumLength: Double = 100, scale: Double, glyphs: GlyphStore)
    -> RGBAImage?
  {
    guard metersPerPoint > 0, metersPerPoint.isFinite else { return nil }
    let meters = roundLength(below: maximumLength * metersPerPoint)
    let feetPerMeter = 3.280_839_895
    let maximumFeet = maximumLength * metersPerPoint * feetPerMeter
    let feet: Double
    let feetLabel: String
    if maximumFeet >= 5280 {
      let miles = roundLength(below: maximumFeet / 5280)
      feet = miles * 5280
      feetLabel = "\(number(miles)) mi"
    } else {
      feet = roundLength(below: maximumFeet)
      feetLabel = "\(number(feet)) ft"
    }
    let metersLabel = meters >= 1000 ? "\(number(meters / 1000)) km" : "\(number(meters)) m"
    let metricLength = meters / metersPerPoint * scale
    let imperialLength = feet / feetPerMeter / metersPerPoint * scale
    let pixelsPerUnit = textSize * scale / TextLayout.oneEm
    func label(_ text: String) -> (TextMask, Shaping) {
      let shaping = glyphs.shape(
        StyledText(sections: [TextSection(text: text)]), fontStack: fontStack,
        options: ShapingOptions(anchor: .topLeft, justify: .left))
      return (TextRasterizer.mask(shaping, glyphs: glyphs, pixelsPerUnit: pixelsPerUnit), shaping)
    }
    let top = label(metersLabel)
    let bottom = label(feetLabel)
    let textHeight = 1.2 * textSize * scale
    let pad = inset * scale
    let line = max((1.5 * scale).rounded(), 1)
    let tick = 5 * scale
    let width = max(metricLength, imperialLength) + 2 * pad + line
    let labelsWidth =
      max(top.1.right - top.1.left, bottom.1.right - bottom.1.left) * pixelsPerUnit + 2 * pad + 2 * scale
    var canvas = OverlayCanvas(
      width: Int(clamping: max(width, labelsWidth).rounded(.up)),
      height: Int(clamping: (2 * textHeight + 2 * tick + 2 * pad).rounded(.up)))
    let box = (0.0, 0.0, Double(canvas.width), Double(canvas.height))
    canvas.fill(backing) { x, y in OverlayCanvas.roundedRectangle(x, y, box, radius: 2 * scale) }
    let baseline = (pad + textHeight + tick).rounded()
    let left = pad.rounded()
    let ink = Color(r: 32, g: 33, b: 36)
    func bar(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
      canvas.fill(ink) { x, y in
        max(max(x0 - x, x - x1), max(y0 - y, y - y1))
      }
    }
    bar(left, baseline - line / 2, left + max(metricLength, imperialLength) + line, baseline + line / 2)
    bar(left, baseline - tick, left + line, baseline + tick)
    bar(left + metricLength, baseline - tick, left + metricLength + line, baseline)
    bar(left + imperialLength, baseline, left + imperialLength + line, baseline + tick)
    let textLeft = left + line + 2 * scale
    canvas.draw(
      top.0, color: ink, x: Int(clamping: (textLeft + (top.0.origin.x - top.1.left) * pixelsPerUnit).rounded()),
      y: Int(clamping: (pad + (top.0.origin.y - top.1.top) * pixelsPerUnit).rounded()))
    canvas.draw(
      bottom.0, color: ink,
      x: Int(clamping: (textLeft + (bottom.0.origin.x - bottom.1.left) * pixelsPerUnit).rounded()),
      y: Int(clamping: (baseline + tick + (bottom.0.origin.y - bottom.1.top) * pixelsPerUnit).rounded()))
    return canvas.image
  }

  /// `value` without a fractional part when it has none ("200", "0.5").
  private static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(clamping: value)) : String(format: "%g", value)
  }
}
