import TesseraImage
import TesseraNumbers

/// One run of a label's text with its own look (`format` sections): a font stack, a scale of
/// the layer's size and a colour, or an inline image.
package struct TextSection: Sendable, Equatable, Hashable {
  package var text: String
  /// Multiplies the layer's `text-size` (`font-scale`).
  package var scale: Double
  /// The font stack (`text-font`); nil: the layer's.
  package var fontStack: [String]?
  /// The colour (`text-color`); nil: the layer's.
  package var color: Color?
  /// An image drawn in place of text (`["image", name]` in `format`).
  package var image: String?

  package init(text: String, scale: Double = 1, fontStack: [String]? = nil, color: Color? = nil, image: String? = nil) {
    self.text = text
    self.scale = scale
    self.fontStack = fontStack
    self.color = color
    self.image = image
  }
}

/// A label's text as code points, each tagged with the section it comes from.
package struct StyledText: Sendable, Equatable {
  /// Unicode scalars in logical order.
  package var codePoints: [UInt32]
  /// The section of each code point (index into ``sections``).
  package var sectionOfCodePoint: [Int]
  package var sections: [TextSection]

  package init(sections: [TextSection]) {
    self.sections = sections
    codePoints = []
    sectionOfCodePoint = []
    for (index, section) in sections.enumerated() {
      if section.image != nil {
        // An image stands in the text as one private-use code point.
        codePoints.append(0xE000)
        sectionOfCodePoint.append(index)
        continue
      }
      for scalar in section.text.unicodeScalars {
        codePoints.append(scalar.value)
        sectionOfCodePoint.append(index)
      }
    }
  }

  init(codePoints: [UInt32], sectionOfCodePoint: [Int], sections: [TextSection]) {
    self.codePoints = codePoints
    self.sectionOfCodePoint = sectionOfCodePoint
    self.sections = sections
  }

  package var isEmpty: Bool { codePoints.isEmpty }
  package var count: Int { codePoints.count }

  /// The text without leading and trailing white space (MapLibre trims labels).
  package func trimmed() -> StyledText {
    var start = 0
    var end = codePoints.count
    while start < end, Unicode.isWhitespace(codePoints[start]) { start += 1 }
    while end > start, Unicode.isWhitespace(codePoints[end - 1]) { end -= 1 }
    return slice(start..<end)
  }

  /// The code points in `range`, with their sections.
  package func slice(_ range: Range<Int>) -> StyledText {
    StyledText(
      codePoints: Array(codePoints[range]), sectionOfCodePoint: Array(sectionOfCodePoint[range]), sections: sections)
  }

  /// The plain text.
  package var string: String {
    var text = ""
    for value in codePoints { if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) } }
    return text
  }
}

extension Unicode {
  /// White space as MapLibre's shaping treats it (trimmed, not advancing in line breaking).
  package static func isWhitespace(_ codePoint: UInt32) -> Bool {
    switch codePoint {
    case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20: return true
    default: return false
    }
  }

  /// Whether a line may break after the character (MapLibre's word-breaking set).
  package static func allowsWordBreaking(_ codePoint: UInt32) -> Bool {
    switch codePoint {
    case 0x0A, 0x20, 0x26, 0x28, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0x2027: return true
    default: return false
    }
  }

  /// Whether a line may break after the character because it is ideographic (CJK, Yi,
  /// fullwidth forms): MapLibre's blocks.
  package static func allowsIdeographicBreaking(_ codePoint: UInt32) -> Bool {
    switch codePoint {
    case 0x2E80...0x2FDF, 0x2FF0...0x303F, 0x3040...0x30FF, 0x3100...0x312F, 0x31A0...0x31FF, 0x3200...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xF900...0xFAFF, 0xFE10...0xFE1F, 0xFE30...0xFE4F,
      0xFF00...0xFFEF:
      return true
    default: return false
    }
  }

  /// Whether the character is Arabic script (Arabic, its supplement, extensions and
  /// presentation forms), which is joined and never letter-spaced.
  package static func isArabic(_ codePoint: UInt32) -> Bool {
    switch codePoint {
    case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return true
    default: return false
    }
  }

  /// Whether the character is written right to left or is Arabic-shaped (Arabic, Hebrew,
  /// Syriac, Thaana, N'Ko and their presentation forms).
  package static func isRightToLeft(_ codePoint: UInt32) -> Bool {
    switch codePoint {
    case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: return true
    default: return false
    }
  }
}
