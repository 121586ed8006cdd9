import TesseraNumbers

/// MapLibre's balanced line breaking: the break points after spaces, breaking punctuation
/// and ideographs whose lines come closest to the average line width (squared raggedness,
/// lopsided last lines and broken parentheses penalised; newlines always break).
package enum LineBreaking {
  /// The indices (into the code points) where lines end, the last being `text.count`; empty
  /// when no breaking applies (`maxWidth` 0). `advance(i)` is the pen advance of code point
  /// `i` in ems · 24 (letter spacing included).
  package static func breaks(_ text: StyledText, maxWidth: Double, advance: (Int) -> Double) -> [Int] {
    guard maxWidth > 0, !text.isEmpty else { return [] }
    var total = 0.0
    for index in 0..<text.count { total += advance(index) }
    let lineCount = max(1, (total / maxWidth).rounded(.up))
    let target = total / lineCount

    var breaks: [PotentialBreak] = []
    var x = 0.0
    for index in 0..<text.count {
      let codePoint = text.codePoints[index]
      if !Unicode.isWhitespace(codePoint) { x += advance(index) }
      guard index < text.count - 1 else { continue }
      let isImage = text.sections[text.sectionOfCodePoint[index]].image != nil
      if isImage || Unicode.allowsIdeographicBreaking(codePoint) || Unicode.allowsWordBreaking(codePoint) {
        let penalty = self.penalty(codePoint, next: text.codePoints[index + 1])
        breaks.append(evaluate(index + 1, x: x, target: target, prior: breaks, penalty: penalty, isLast: false))
      }
    }
    let last = evaluate(text.count, x: x, target: target, prior: breaks, penalty: 0, isLast: true)
    var result = [last.index]
    var prior = last.prior
    while let index = prior {
      result.append(breaks[index].index)
      prior = breaks[index].prior
    }
    return result.reversed()
  }

  struct PotentialBreak {
    let index: Int
    let x: Double
    /// The best break before it (index into the list).
    let prior: Int?
    let badness: Double
  }

  static func badness(_ width: Double, target: Double, penalty: Double, isLast: Bool) -> Double {
    let raggedness = (width - target) * (width - target)
    if isLast { return width < target ? raggedness / 2 : raggedness * 2 }
    return penalty < 0 ? raggedness - penalty * penalty : raggedness + penalty * penalty
  }

  static func penalty(_ codePoint: UInt32, next: UInt32) -> Double {
    var penalty = 0.0
    if codePoint == 0x0A { penalty -= 10_000 }
    if codePoint == 0x28 || codePoint == 0xFF08 { penalty += 50 }
    if next == 0x29 || next == 0xFF09 { penalty += 50 }
    return penalty
  }

  static func evaluate(
    _ index: Int, x: Double, target: Double, prior breaks: [PotentialBreak], penalty: Double, isLast: Bool
  ) -> PotentialBreak {
    var best: Int?
    var bestBadness = badness(x, target: target, penalty: penalty, isLast: isLast)
    for (position, candidate) in breaks.enumerated() {
      let value = badness(x - candidate.x, target: target, penalty: penalty, isLast: isLast) + candidate.badness
      if value <= bestBadness {
        best = position
        bestBadness = value
      }
    }
    return PotentialBreak(index: index, x: x, prior: best, badness: bestBadness)
  }
}
