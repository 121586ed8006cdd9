import TesseraNumbers
import TesseraText

/// The lines of an info window's title or snippet: words wrapped greedily at the bubble's
/// width (a word wider than the bubble is broken between its characters), at most
/// `maximumLines` lines, the last ending in an ellipsis when text is left out. Lines are cut
/// in logical order, so right-to-left text loses its logical end (its left side).
struct InfoWindowText {
  let font: String
  /// Pixels of the em the text is measured at (layout units: ``TextLayout/oneEm``).
  let maximumWidth: Double
  let maximumLines: Int
  let glyphs: GlyphStore

  static let ellipsis = "…"

  /// `text` with a newline wherever a line ends.
  func wrapped(_ text: String) -> String {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lines += wrap(paragraph)
      if lines.count > maximumLines { break }
    }
    guard lines.count > maximumLines else { return lines.joined(separator: "\n") }
    var last = Substring(lines[maximumLines - 1])
    while !last.isEmpty, !fits(String(last) + InfoWindowText.ellipsis) { last = last.dropLast() }
    while last.last?.isWhitespace == true { last = last.dropLast() }
    return (lines.prefix(maximumLines - 1) + [String(last) + InfoWindowText.ellipsis]).joined(separator: "\n")
  }

  /// One paragraph's lines.
  private func wrap(_ paragraph: Substring) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if fits(candidate) {
        line = candidate
        continue
      }
      if !line.isEmpty { lines.append(line) }
      var rest = word
      while !fits(String(rest)), rest.count > 1 {
        let count = longestFittingPrefix(of: rest)
        lines.append(String(rest.prefix(count)))
        rest = rest.dropFirst(count)
        if lines.count > maximumLines { return lines }
      }
      line = String(rest)
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }

  /// The most characters (grapheme clusters, at least one) from the start of `word` that fit.
  private func longestFittingPrefix(of word: Substring) -> Int {
    var low = 1
    var high = word.count
    while low < high {
      let middle = (low + high + 1) / 2
      if fits(String(word.prefix(middle))) { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// Whether `text` laid out on one line is at most ``maximumWidth`` wide.
  private func fits(_ text: String) -> Bool {
    let shaping = glyphs.shape(
      StyledText(sections: [TextSection(text: text)]), fontStack: [font],
      options: ShapingOptions(anchor: .topLeft, justify: .left))
    return shaping.isEmpty || shaping.right - shaping.left <= maximumWidth
  }
}
