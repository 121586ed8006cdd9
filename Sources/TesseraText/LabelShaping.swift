import CFriBidi
import CHarfBuzz
import TesseraData
import TesseraNumbers

/// How a label's text is laid out (pixels at 24 px, one em).
package struct ShapingOptions: Sendable, Hashable {
  /// Lines break at about this width (`text-max-width` × 24); 0: no breaking.
  package var maxWidth: Double
  /// `text-line-height` × 24.
  package var lineHeight: Double
  /// `text-letter-spacing` × 24.
  package var spacing: Double
  package var anchor: TextAnchor
  package var justify: TextJustification
  /// Vertical writing: upright characters (``VerticalWriting/isUpright(_:)``) advance one em
  /// and punctuation takes its vertical forms (glyph PBFs only).
  package var vertical = false
  /// With ``vertical``, every character but white space and Arabic script stands upright
  /// (MapLibre's vertical point labels) rather than only CJK ones (labels along lines).
  package var uprightLatin = false
  /// The images the text's image sections may show, by name; a section whose image is not
  /// here is left out.
  package var images: [String: InlineImage] = [:]
  /// `text-size` at the tile's zoom, pixels: images are laid out against it.
  package var textSize = TextLayout.oneEm
  /// `text-size` one zoom deeper, pixels: images are measured against it for line breaking
  /// (MapLibre's layout size).
  package var breakingTextSize = TextLayout.oneEm

  package init(
    maxWidth: Double = 0, lineHeight: Double = 1.2 * 24, spacing: Double = 0, anchor: TextAnchor = .center,
    justify: TextJustification = .center
  ) {
    self.maxWidth = maxWidth
    self.lineHeight = lineHeight
    self.spacing = spacing
    self.anchor = anchor
    self.justify = justify
  }
}

extension GlyphStore {
  /// Lays out a label: with glyph PBFs as MapLibre Native does (Arabic presentation forms,
  /// balanced line breaks, bidi reordering per line, one glyph per code point); with local
  /// fonts through HarfBuzz (kerning, ligatures, joining, Indic reordering) with a font
  /// fallback per character. `fontStack` is the layer's; sections may name their own.
  package func shape(_ text: StyledText, fontStack: [String], options: ShapingOptions) -> Shaping {
    let scales = text.sections.map(\.scale)
    let lines: [[LineItem]]
    if usesGlyphPBFs || fonts == nil {
      lines = pbfLines(text, fontStack: fontStack, options: options)
    } else {
      for stack in Set(text.sections.map { $0.fontStack ?? fontStack }) where !stack.isEmpty {
        if !stack.contains(where: { fonts!.face(named: $0) != nil }) {
          warn(
            "no local font named \(stack.map { "'\($0)'" }.joined(separator: ", ")); labels in that font stack "
              + "use the fallback fonts (Noto Sans and a Noto family per script)")
        }
      }
      if fonts!.colorFaces.isEmpty, !EmojiText.clusters(text.codePoints).isEmpty {
        warn(
          "no colour emoji font is installed (Debian: fonts-noto-color-emoji); emoji are drawn from the "
            + "text fonts in black and white where they have them, else left out")
      }
      lines = fontLines(text, fontStack: fontStack, options: options, fonts: fonts!)
    }
    return TextLayout.layout(
      lines, scales: scales, spacing: options.spacing, lineHeight: options.lineHeight, anchor: options.anchor,
      justify: options.justify, textSize: options.textSize)
  }

  /// The image section `section` of `text` shows, when it is one and the image is known.
  private func image(_ text: StyledText, section: Int, options: ShapingOptions) -> InlineImage? {
    text.sections[section].image.flatMap { options.images[$0] }
  }

  /// The pen advance of code point `index` of an image section before line breaking, pixels
  /// at 24 px (letter spacing included); nil for text.
  private func imageAdvance(_ text: StyledText, _ index: Int, options: ShapingOptions) -> Double? {
    let section = text.sectionOfCodePoint[index]
    guard text.sections[section].image != nil else { return nil }
    guard let image = image(text, section: section, options: options) else { return 0 }
    return image.breakingAdvance(sectionScale: text.sections[section].scale, textSize: options.breakingTextSize)
      + options.spacing
  }

  // MARK: Glyph PBFs (MapLibre Native's shaping)

  private func pbfLines(_ logical: StyledText, fontStack: [String], options: ShapingOptions) -> [[LineItem]] {
    let text = BidiText.shapeArabic(options.vertical ? VerticalWriting.verticalizingPunctuation(logical) : logical)
    let fontIDs = text.sections.map { fontID($0.fontStack ?? fontStack) }
    func glyph(_ index: Int) -> SDFGlyph? {
      pbfGlyph(font: fontIDs[text.sectionOfCodePoint[index]], codePoint: text.codePoints[index])
    }
    let breaks = LineBreaking.breaks(text, maxWidth: options.maxWidth) { index in
      if let advance = imageAdvance(text, index, options: options) { return advance }
      guard let glyph = glyph(index) else { return 0 }
      return glyph.advance * text.sections[text.sectionOfCodePoint[index]].scale + options.spacing
    }
    return BidiText.visualLines(text, breaks: breaks).map { line in
      let line = line.trimmed()
      var items: [LineItem] = []
      for index in 0..<line.count {
        let section = line.sectionOfCodePoint[index]
        if line.sections[section].image != nil {
          guard let image = image(line, section: section, options: options) else { continue }
          // Images stand upright wherever Latin letters do (vertical point labels).
          items.append(LineItem(image: image, section: section, vertical: options.vertical && options.uprightLatin))
          continue
        }
        let font = fontIDs[section]
        guard let glyph = pbfGlyph(font: font, codePoint: line.codePoints[index]) else { continue }
        items.append(
          LineItem(
            glyph: GlyphKey(font: font, id: line.codePoints[index]),
            metrics: GlyphMetrics(
              width: Double(glyph.width), height: Double(glyph.height), left: Double(glyph.left),
              top: Double(glyph.top), advance: glyph.advance), section: section))
        let codePoint = line.codePoints[index]
        items[items.count - 1].vertical =
          options.vertical
          && (VerticalWriting.isUpright(codePoint)
            || (options.uprightLatin && !Unicode.isWhitespace(codePoint) && !Unicode.isArabic(codePoint)))
      }
      return items
    }
  }

  // MARK: Local fonts (HarfBuzz)

  private func fontLines(_ text: StyledText, fontStack: [String], options: ShapingOptions, fonts: FontLibrary)
    -> [[LineItem]]
  {
    // Without a single readable font there is nothing to draw the label with.
    guard !text.isEmpty, !fonts.faces.isEmpty else { return [] }
    let faces = fonts.faceRuns(text, fontStack: fontStack)
    let levels = BidiText.embeddingLevels(text)
    // Advances of the logical text, for line breaking.
    var advances = [Double](repeating: 0, count: text.count)
    for run in FontRun.split(text, faces: faces, levels: levels, range: 0..<text.count) {
      if let advance = imageAdvance(text, run.range.lowerBound, options: options) {
        advances[run.range.lowerBound] = advance - options.spacing
        continue
      }
      for glyph in fonts.shapeRun(text, run) where glyph.cluster < advances.count {
        advances[glyph.cluster] += glyph.advance * text.sections[text.sectionOfCodePoint[glyph.cluster]].scale
      }
    }
    let breaks = LineBreaking.breaks(text, maxWidth: options.maxWidth) { advances[$0] + options.spacing }
    var ends = Set(breaks)
    for (index, codePoint) in text.codePoints.enumerated() where codePoint == 0x0A { ends.insert(index + 1) }
    ends.insert(text.count)
    var lines: [[LineItem]] = []
    var start = 0
    for end in ends.sorted() where end > start {
      var low = start
      var high = end
      while low < high, Unicode.isWhitespace(text.codePoints[low]) { low += 1 }
      while high > low, Unicode.isWhitespace(text.codePoints[high - 1]) { high -= 1 }
      var items: [LineItem] = []
      for run in FontRun.visualOrder(FontRun.split(text, faces: faces, levels: levels, range: low..<high)) {
        let section = text.sectionOfCodePoint[run.range.lowerBound]
        if text.sections[section].image != nil {
          // An image section is one code point, a run of its own.
          if let image = image(text, section: section, options: options) {
            items.append(LineItem(image: image, section: section, vertical: false))
          }
          continue
        }
        let font = FontLibrary.fontID(face: run.face)
        for glyph in fonts.shapeRun(text, run) {
          guard var metrics = fonts.metrics(face: run.face, glyph: glyph.id) else { continue }
          metrics.advance = glyph.advance
          items.append(
            LineItem(
              glyph: GlyphKey(font: font, id: glyph.id), metrics: metrics,
              section: text.sectionOfCodePoint[min(glyph.cluster, text.count - 1)],
              offset: (glyph.offsetX, -glyph.offsetY)))
        }
      }
      lines.append(items)
      start = end
    }
    return lines
  }
}

/// A run of text shaped with one face at one bidi level.
struct FontRun {
  let range: Range<Int>
  let face: Int
  let level: UInt8

  var isRightToLeft: Bool { level & 1 == 1 }

  /// `range` split where the face, the bidi level or the section changes.
  static func split(_ text: StyledText, faces: [Int], levels: [UInt8], range: Range<Int>) -> [FontRun] {
    var runs: [FontRun] = []
    var start = range.lowerBound
    for index in range where index > start {
      if faces[index] != faces[start] || levels[index] != levels[start]
        || text.sectionOfCodePoint[index] != text.sectionOfCodePoint[start]
      {
        runs.append(FontRun(range: start..<index, face: faces[start], level: levels[start]))
        start = index
      }
    }
    if start < range.upperBound {
      runs.append(FontRun(range: start..<range.upperBound, face: faces[start], level: levels[start]))
    }
    return runs
  }

  /// Runs of one line in visual order (rule L2 of the bidi algorithm: from the highest level
  /// down, reverse every sequence at that level or above).
  static func visualOrder(_ runs: [FontRun]) -> [FontRun] {
    guard let highest = runs.map(\.level).max() else { return runs }
    let lowestOdd = (runs.map(\.level).filter { $0 & 1 == 1 }.min()) ?? (highest + 1)
    var order = runs
    var level = highest
    while level >= lowestOdd, level > 0 {
      var index = 0
      while index < order.count {
        guard order[index].level >= level else {
          index += 1
          continue
        }
        var end = index
        while end < order.count, order[end].level >= level { end += 1 }
        order[index..<end].reverse()
        index = end
      }
      level -= 1
    }
    return order
  }
}

/// One glyph HarfBuzz placed: its index in the face, the code point it starts at, its
/// advance and offset (pixels at 24 px; y up).
struct ShapedGlyph {
  let id: UInt32
  let cluster: Int
  let advance: Double
  let offsetX: Double
  let offsetY: Double
}

extension BidiText {
  /// The bidi embedding level of each code point (paragraph direction from the first strong
  /// character, left to right when there is none).
  static func embeddingLevels(_ text: StyledText) -> [UInt8] {
    guard needsProcessing(text) else { return [UInt8](repeating: 0, count: text.count) }
    guard
      let analysis = analyseParagraphs(text.codePoints.map { FriBidiChar($0) }, paragraphs: paragraphs(text))
    else { return [UInt8](repeating: 0, count: text.count) }
    return analysis.levels.map { UInt8(bitPattern: $0) }
  }
}

extension FontLibrary {
  /// The face of each code point: the first of its section's chain that has it; combining
  /// marks, joiners and variation selectors stay with the character before them, and
  /// characters of no script of their own (spaces, punctuation, digits) take the face of the
  /// letters around them when it has them, so that runs are not split.
  func faceRuns(_ text: StyledText, fontStack: [String]) -> [Int] {
    var chains: [Int: [Int]] = [:]
    var result = [Int](repeating: -1, count: text.count)
    let unicode = hb_unicode_funcs_get_default()
    func isCommon(_ codePoint: UInt32) -> Bool {
      let script = hb_unicode_script(unicode, codePoint)
      return script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
    }
    let allFaces = faces
    let colorFaces = Set(self.colorFaces)
    withEngine { engine in
      func chain(_ section: Int) -> [Int] {
        if let known = chains[section] { return known }
        let made = self.chain(for: text.sections[section].fontStack ?? fontStack)
        chains[section] = made
        return made
      }
      // Emoji first, each cluster whole in the first colour face that has it.
      for cluster in EmojiText.clusters(text.codePoints) {
        let codePoint = text.codePoints[cluster.lowerBound]
        guard let face = self.colorFaces.first(where: { engine.has(allFaces[$0], codePoint) }) else { continue }
        for index in cluster { result[index] = face }
      }
      // Then letters.
      for index in 0..<text.count where result[index] < 0 && !isCommon(text.codePoints[index]) {
        let codePoint = text.codePoints[index]
        let faces = chain(text.sectionOfCodePoint[index])
        result[index] = faces.first { engine.has(allFaces[$0], codePoint) } ?? faces.first ?? 0
      }
      // Then the rest: marks with their base, common characters with their neighbours.
      for index in 0..<text.count where result[index] < 0 {
        let codePoint = text.codePoints[index]
        if index > 0, FontLibrary.staysWithPrevious(codePoint) {
          result[index] = result[index - 1]
          continue
        }
        let before = (0..<index).reversed().first { result[$0] >= 0 }.map { result[$0] }
        let after = (index + 1..<text.count).first { result[$0] >= 0 }.map { result[$0] }
        if let face = [before, after].compactMap({ $0 }).first(where: {
          !colorFaces.contains($0) && engine.has(allFaces[$0], codePoint)
        }) {
          result[index] = face
          continue
        }
        let faces = chain(text.sectionOfCodePoint[index])
        result[index] = faces.first { engine.has(allFaces[$0], codePoint) } ?? faces.first ?? 0
      }
    }
    return result
  }

  static func staysWithPrevious(_ codePoint: UInt32) -> Bool {
    switch codePoint {
    case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670,
      0x06D6...0x06ED, 0x0900...0x0903, 0x093A...0x094F, 0x0951...0x0957, 0x0962...0x0963, 0x0E31, 0x0E34...0x0E3A,
      0x0E47...0x0E4E, 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1AB0...0x1AFF, 0x20D0...0x20FF:
      return true
    default: return false
    }
  }

  /// Shapes one run with HarfBuzz: glyphs in visual order.
  func shapeRun(_ text: StyledText, _ run: FontRun) -> [ShapedGlyph] {
    guard faces.indices.contains(run.face) else { return [] }
    let face = faces[run.face]
    return withEngine { engine in
      guard let handles = engine.handles(face), let buffer = hb_buffer_create() else { return [] }
      // HarfBuzz measures in the face's pixels (26.6); layout pixels differ for bitmap fonts.
      let scale = (engine.pixelScales[face] ?? 1) / 64
      defer { hb_buffer_destroy(buffer) }
      let codePoints = text.codePoints
      codePoints.withUnsafeBufferPointer { pointer in
        hb_buffer_add_utf32(
          buffer, pointer.baseAddress, Int32(codePoints.count), UInt32(run.range.lowerBound), Int32(run.range.count))
      }
      hb_buffer_set_direction(buffer, run.isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
      hb_buffer_guess_segment_properties(buffer)
      hb_shape(handles.font, buffer, nil, 0)
      var count: UInt32 = 0
      guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
      else { return [] }
      return (0..<Int(count)).map { index in
        ShapedGlyph(
          id: infos[index].codepoint, cluster: Int(infos[index].cluster),
          advance: Double(positions[index].x_advance) * scale, offsetX: Double(positions[index].x_offset) * scale,
          offsetY: Double(positions[index].y_offset) * scale)
      }
    }
  }
}
