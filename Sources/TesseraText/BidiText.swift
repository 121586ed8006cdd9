import CFriBidi
import Synchronization
import TesseraNumbers

/// Right-to-left text for glyph sets without shaping data, as MapLibre Native prepares it:
/// Arabic letters replaced by their joined presentation forms (lam-alef ligatures included),
/// then each line put in visual order by the Unicode bidirectional algorithm (FriBidi),
/// brackets mirrored and bidi controls removed.
package enum BidiText {
  /// FriBidi built without its simple allocator keeps a free list of runs shared by every
  /// call, unguarded; labels are shaped on many threads, so its analyses and reorderings run
  /// one at a time.
  static let library = Mutex(())

  /// Whether any code point needs shaping or reordering.
  package static func needsProcessing(_ text: StyledText) -> Bool {
    text.codePoints.contains(where: Unicode.isRightToLeft)
  }

  /// A paragraph's bidi analysis: each character's type and embedding level and the resolved
  /// direction.
  struct Paragraph {
    var types: [FriBidiCharType]
    var levels: [FriBidiLevel]
    var direction: FriBidiParType
  }

  /// The bidi analysis of `characters` (direction from the first strong character, else
  /// `fallback`: FRIBIDI_PAR_WLTR 0x20 or FRIBIDI_PAR_ON 0x40); nil when FriBidi fails.
  static func analyse(_ characters: [FriBidiChar], fallback: FriBidiParType = FriBidiParType(0x20)) -> Paragraph? {
    let count = FriBidiStrIndex(characters.count)
    var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: characters.count)
    var brackets = [FriBidiBracketType](repeating: 0, count: characters.count)
    var levels = [FriBidiLevel](repeating: 0, count: characters.count)
    var direction = fallback
    let analysed = library.withLock { _ in
      fribidi_get_bidi_types(characters, count, &types)
      fribidi_get_bracket_types(characters, count, types, &brackets)
      return fribidi_get_par_embedding_levels_ex(types, brackets, count, &direction, &levels) != 0
    }
    guard analysed else { return nil }
    return Paragraph(types: types, levels: levels, direction: direction)
  }

  /// `text` with Arabic letters in presentation forms (logical order kept).
  package static func shapeArabic(_ text: StyledText) -> StyledText {
    guard text.codePoints.contains(where: { (0x0600...0x06FF).contains($0) || (0x0750...0x077F).contains($0) })
    else { return text }
    var characters = text.codePoints.map { FriBidiChar($0) }
    let count = FriBidiStrIndex(characters.count)
    guard let paragraph = analyse(characters, fallback: FriBidiParType(0x40)) else { return text }
    let (types, levels) = (paragraph.types, paragraph.levels)
    var joining = [FriBidiArabicProp](repeating: 0, count: characters.count)
    library.withLock { _ in
      fribidi_get_joining_types(characters, count, &joining)
      fribidi_join_arabic(types, count, levels, &joining)
      let flags = FriBidiFlags(FRIBIDI_FLAG_SHAPE_ARAB_PRES | FRIBIDI_FLAG_SHAPE_ARAB_LIGA)
      fribidi_shape_arabic(flags, levels, count, &joining, &characters)
    }
    var result = StyledText(codePoints: [], sectionOfCodePoint: [], sections: text.sections)
    for (index, character) in characters.enumerated() where character != 0xFEFF {
      result.codePoints.append(UInt32(character))
      result.sectionOfCodePoint.append(text.sectionOfCodePoint[index])
    }
    return result
  }

  /// The lines of `text` ending at `breaks` (all of it when empty; newlines always end a
  /// paragraph), each in visual order.
  package static func visualLines(_ text: StyledText, breaks: [Int]) -> [StyledText] {
    var ends = Set(breaks)
    for (index, codePoint) in text.codePoints.enumerated() where codePoint == 0x0A { ends.insert(index + 1) }
    ends.insert(text.count)
    var lines: [StyledText] = []
    var start = 0
    for end in ends.sorted() where end > start || end == text.count {
      lines.append(text.slice(start..<end))
      start = end
    }
    guard needsProcessing(text) else { return lines }
    return reorder(text, lines: ends.sorted())
  }

  /// The ranges of `text`'s paragraphs: each ends after a newline, the last at the end.
  static func paragraphs(_ text: StyledText) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    for (index, codePoint) in text.codePoints.enumerated() where codePoint == 0x0A {
      ranges.append(start..<(index + 1))
      start = index + 1
    }
    if start < text.count || ranges.isEmpty { ranges.append(start..<text.count) }
    return ranges
  }

  /// The bidi analysis of the whole text, one paragraph at a time (as ICU reads text with
  /// paragraph separators): each paragraph takes its direction from its own first strong
  /// character, so an Arabic paragraph after an English one reads right to left.
  static func analyseParagraphs(_ characters: [FriBidiChar], paragraphs: [Range<Int>]) -> (
    types: [FriBidiCharType], levels: [FriBidiLevel], directions: [FriBidiParType]
  )? {
    var types: [FriBidiCharType] = []
    var levels: [FriBidiLevel] = []
    var directions: [FriBidiParType] = []
    for range in paragraphs {
      guard let paragraph = analyse(Array(characters[range])) else { return nil }
      types += paragraph.types
      levels += paragraph.levels
      directions.append(paragraph.direction)
    }
    return (types, levels, directions)
  }

  private static func reorder(_ text: StyledText, lines ends: [Int]) -> [StyledText] {
    var characters = text.codePoints.map { FriBidiChar($0) }
    let count = FriBidiStrIndex(characters.count)
    // MapLibre's paragraph direction: from the first strong character, else left to right.
    let paragraphs = paragraphs(text)
    guard let analysis = analyseParagraphs(characters, paragraphs: paragraphs) else { return [] }
    let types = analysis.types
    var levels = analysis.levels
    library.withLock { _ in fribidi_shape_mirroring(levels, count, &characters) }
    var map = (0..<characters.count).map { FriBidiStrIndex($0) }
    var lines: [StyledText] = []
    var start = 0
    for end in ends where end > start || end == text.count {
      let length = end - start
      if length > 0 {
        // Lines never cross paragraphs (newlines end lines).
        let paragraph = paragraphs.firstIndex { $0.contains(start) } ?? 0
        let flags = FriBidiFlags(FRIBIDI_FLAG_REORDER_NSM)
        _ = library.withLock { _ in
          fribidi_reorder_line(
            flags, types, FriBidiStrIndex(length), FriBidiStrIndex(start), analysis.directions[paragraph], &levels,
            &characters, &map)
        }
      }
      // MapLibre Native writes each right-to-left run in chunks of one section, walking it
      // backwards; the run's first character joins the chunk after it even when its own
      // section differs (so a space before Arabic takes the Arabic's scale). Kept, so that
      // labels from glyph PBFs come out as Native draws them.
      var sections = Array(text.sectionOfCodePoint[start..<end])
      var runStart = start
      while runStart < end {
        var runEnd = runStart + 1
        while runEnd < end, levels[runEnd] == levels[runStart] { runEnd += 1 }
        if levels[runStart] & 1 == 1, runEnd - runStart > 1,
          sections[runStart - start] != sections[runStart + 1 - start]
        {
          sections[runStart - start] = sections[runStart + 1 - start]
        }
        runStart = runEnd
      }
      var line = StyledText(codePoints: [], sectionOfCodePoint: [], sections: text.sections)
      for position in start..<end {
        let codePoint = UInt32(characters[position])
        if isBidiControl(codePoint) { continue }
        line.codePoints.append(codePoint)
        line.sectionOfCodePoint.append(sections[Int(map[position]) - start])
      }
      lines.append(line)
      start = end
    }
    return lines
  }

  static func isBidiControl(_ codePoint: UInt32) -> Bool {
    switch codePoint {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
