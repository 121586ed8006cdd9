import Synchronization
import TesseraData
import TesseraNumbers

/// The glyphs of a map, shared by all its layers and tiles: glyph PBF ranges of font stacks
/// loaded on first use (and local font glyphs rasterised on first use), each glyph packed
/// once into one distance-field atlas. Safe to use from any thread.
package final class GlyphStore: Sendable {
  /// Reads the PBF of the 256 code points from `rangeStart` of `fontStack` (its fonts joined
  /// with ","): its bytes and the file or URL they came from (named in errors); nil when
  /// there is none (a missing file, HTTP 404).
  package typealias RangeLoader =
    @Sendable (_ fontStack: String, _ rangeStart: Int) throws(GlyphError) -> (
      bytes: [UInt8], source: String
    )?

  private let loader: RangeLoader?
  /// Local fonts used where there are no PBFs (or as a fallback for missing ranges).
  package let fonts: FontLibrary?
  private let state: Mutex<State>

  struct RangeKey: Hashable {
    let font: Int32
    let start: Int
  }

  struct State {
    var fontIDs: [String: Int32] = [:]
    var fontNames: [String] = []
    var ranges: [RangeKey: [UInt32: SDFGlyph]] = [:]
    var atlas = ShelfAtlas(width: 1024, height: 256, maxHeight: 4096, bytesPerTexel: 1)
    var positions: [GlyphKey: AtlasRect?] = [:]
    /// Distance fields measured (``GlyphStore/glyphSize(_:)``) and not packed yet; nil for
    /// blank glyphs.
    var unpacked: [GlyphKey: SDFGlyph?] = [:]
    /// The local faces whose glyphs were drawn (font ids from ``FontLibrary/firstFontID``).
    var usedFonts = Set<Int32>()
    var warnings: [String] = []
    var reported = 0
    var failure: GlyphError?
    var warned = Set<String>()
  }

  /// `loader` reads glyph PBFs (nil: the style has no `glyphs` URL); `fonts` shapes and
  /// rasterises local font files.
  package init(loader: RangeLoader?, fonts: FontLibrary? = nil) {
    self.loader = loader
    self.fonts = fonts
    state = Mutex(State())
  }

  /// Whether labels are drawn from glyph PBFs (else from local fonts).
  package var usesGlyphPBFs: Bool { loader != nil }

  /// What went wrong while loading glyphs (missing ranges, corrupt files), once each.
  package var warnings: [String] { state.withLock { $0.warnings } }

  /// The first glyph file that could not be used (corrupt, or failing to download), if any:
  /// frames drawing labels fail with it.
  package var failure: GlyphError? { state.withLock { $0.failure } }

  /// The warnings not taken before (each is reported once).
  package func takeNewWarnings() -> [String] {
    state.withLock { state in
      let new = Array(state.warnings[state.reported...])
      state.reported = state.warnings.count
      return new
    }
  }

  /// The font id of a PBF font stack.
  package func fontID(_ fontStack: [String]) -> Int32 {
    let name = fontStack.joined(separator: ",")
    return state.withLock { state in
      if let id = state.fontIDs[name] { return id }
      let id = Int32(state.fontNames.count)
      state.fontIDs[name] = id
      state.fontNames.append(name)
      return id
    }
  }

  /// The PBF glyph of `codePoint` in the font stack `font`, loading its range if needed.
  package func pbfGlyph(font: Int32, codePoint: UInt32) -> SDFGlyph? {
    let start = Int(codePoint / 256) * 256
    let key = RangeKey(font: font, start: start)
    if let glyphs = state.withLock({ $0.ranges[key] }) { return glyphs[codePoint] }
    let name = state.withLock { $0.fontNames[Int(font)] }
    var glyphs: [UInt32: SDFGlyph] = [:]
    var problem: String?
    if let loader {
      do {
        if let loaded = try loader(name, start) {
          glyphs = try GlyphRangeDecoder.decode(loaded.bytes, source: loaded.source)
        } else {
          problem =
            "no glyphs for code points \(start)-\(start + 255) of font stack '\(name)'; those characters are left out"
        }
      } catch {
        problem = "\(error); those characters are left out"
        state.withLock { state in if state.failure == nil { state.failure = error } }
      }
    }
    return state.withLock { state in
      if state.ranges[key] == nil {
        state.ranges[key] = glyphs
        if let problem { state.warn(problem) }
      }
      return state.ranges[key]?[codePoint]
    }
  }

  /// The distance field of a glyph: from PBFs for stack fonts, rasterised for local fonts.
  package func bitmap(_ key: GlyphKey) -> SDFGlyph? {
    if key.font >= FontLibrary.firstFontID {
      state.withLock { _ = $0.usedFonts.insert(key.font) }
      return fonts?.glyph(key)
    }
    return pbfGlyph(font: key.font, codePoint: key.id)
  }

  /// The picture of a glyph of a colour font (emoji); nil for every other glyph.
  package func colorGlyph(_ key: GlyphKey) -> ColorGlyph? {
    guard key.font >= FontLibrary.firstFontID, let fonts, fonts.isColorFont(key.font) else { return nil }
    state.withLock { _ = $0.usedFonts.insert(key.font) }
    return fonts.colorGlyph(key)
  }

  /// The size of the glyph's distance field, texels, without packing it; nil for blank
  /// glyphs. Labels are laid out with sizes (on any thread, in any order) and their glyphs
  /// packed afterwards in an order of the caller's (``atlasRect(_:)``): where a glyph lies in
  /// the atlas must not depend on which tile's labels were shaped first.
  package func glyphSize(_ key: GlyphKey) -> (width: Int, height: Int)? {
    if let known = state.withLock({ $0.positions[key] }) { return known.map { ($0.width, $0.height) } }
    if let measured = state.withLock({ $0.unpacked[key] }) {
      return measured.flatMap { $0.bitmap.isEmpty ? nil : $0.bitmapSize }
    }
    let glyph = bitmap(key)
    state.withLock { state in
      if state.unpacked[key] == nil && state.positions[key] == nil { state.unpacked[key] = .some(glyph) }
    }
    return glyph.flatMap { $0.bitmap.isEmpty ? nil : $0.bitmapSize }
  }

  /// Where the glyph lies in the atlas (packing it on first use); nil for blank glyphs.
  package func atlasRect(_ key: GlyphKey) -> AtlasRect? {
    if let known = state.withLock({ $0.positions[key] }) { return known }
    let measured = state.withLock { $0.unpacked[key] }
    let glyph = measured ?? bitmap(key)
    return state.withLock { state in
      state.unpacked[key] = nil
      if let known = state.positions[key] { return known }
      var rect: AtlasRect?
      if let glyph, !glyph.bitmap.isEmpty {
        let size = glyph.bitmapSize
        rect = state.atlas.insert(width: size.width, height: size.height, pixels: glyph.bitmap)
        if rect == nil { state.warn("the glyph atlas is full (4096 rows); further glyphs are left out") }
      }
      state.positions[key] = .some(rect)
      return rect
    }
  }

  /// Records a problem once.
  package func warn(_ message: String) { state.withLock { $0.warn(message) } }

  /// The atlas as it stands, and marks its changes as uploaded: what ``ShelfAtlas/dirtyRows``
  /// says changed since the last call.
  package func takeAtlasChanges() -> ShelfAtlas {
    state.withLock { state in
      let atlas = state.atlas
      state.atlas.markUploaded()
      return atlas
    }
  }

  /// The local font faces whose glyphs this store has drawn (a snapshot depends on exactly
  /// these files), in font-id order.
  package var fontFacesUsed: [FontFace] {
    guard let fonts else { return [] }
    let faces = fonts.faces
    return state.withLock { $0.usedFonts }.sorted().compactMap { id in
      let index = Int(id - FontLibrary.firstFontID)
      return faces.indices.contains(index) ? faces[index] : nil
    }
  }

  /// The local font faces the glyphs of `shaping` come from, in font-id order: what drawing
  /// that text depends on, whatever else the store has drawn.
  package func fontFaces(of shaping: Shaping) -> [FontFace] {
    guard let fonts else { return [] }
    let faces = fonts.faces
    return Set(shaping.glyphs.map(\.glyph.font)).sorted().compactMap { id in
      let index = Int(id - FontLibrary.firstFontID)
      return faces.indices.contains(index) ? faces[index] : nil
    }
  }

  /// The atlas size, texels.
  package var atlasSize: (width: Int, height: Int) { state.withLock { ($0.atlas.width, $0.atlas.height) } }
}

extension GlyphStore.State {
  mutating func warn(_ message: String) {
    guard warned.insert(message).inserted, warnings.count < 100 else { return }
    warnings.append(message)
  }
}
