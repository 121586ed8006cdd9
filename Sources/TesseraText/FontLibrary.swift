import CFreeType
import CHarfBuzz
import Foundation
import Synchronization
import TesseraData
import TesseraNumbers

/// A font face Tessera can shape with and rasterise: one face of a font file.
public struct FontFace: Sendable, Hashable {
  /// The font file.
  public let path: String
  /// The face within a collection (.ttc), else 0.
  public let index: Int
  /// "Noto Sans", "Noto Sans Arabic" …
  public let family: String
  /// "Regular", "Bold" …
  public let style: String

  /// The name font stacks use: family and style ("Noto Sans Regular").
  public var fullName: String { style.isEmpty ? family : "\(family) \(style)" }
}

/// Local font files (a fonts folder and the system's fonts): font-stack names matched to
/// faces ("Noto Sans Regular" → NotoSans-Regular.ttf), a fallback chain per script, shaping
/// with HarfBuzz and distance fields rendered by FreeType. Safe to use from any thread (the
/// FreeType faces are used under a lock).
package final class FontLibrary: Sendable {
  /// Font ids from here on are local faces (below are glyph-PBF font stacks).
  package static let firstFontID: Int32 = 1 << 20
  /// The folders searched when no other is given.
  package static let systemFolders = ["/usr/share/fonts", "/usr/local/share/fonts"]
  /// Families tried, in order, for characters the stack's fonts lack: Latin and Greek and
  /// Cyrillic first, then each script's Noto family (the Debian fonts-noto packages).
  package static let fallbackFamilies = [
    "Noto Sans", "Noto Sans Arabic", "Noto Naskh Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari",
    "Noto Sans Bengali", "Noto Sans Tamil", "Noto Sans Thai", "Noto Sans Armenian", "Noto Sans Georgian",
    "Noto Sans Ethiopic", "Noto Sans Khmer", "Noto Sans Lao", "Noto Sans Myanmar", "Noto Sans Sinhala",
    "Noto Sans Gujarati", "Noto Sans Gurmukhi", "Noto Sans Kannada", "Noto Sans Malayalam", "Noto Sans Telugu",
    "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans Symbols", "Noto Sans Symbols2",
    "DejaVu Sans",
  ]

  /// The system's fonts, scanned once per process.
  package static let system = FontLibrary()

  /// Every face found, by font id − ``firstFontID``.
  package var faces: [FontFace] { catalog.faces }
  /// Font files that could not be read (left out), each named with the reason.
  package var unreadableFiles: [GlyphError] { catalog.unreadable }
  /// The faces with colour glyphs (indices in ``faces``): Noto Color Emoji and the like.
  package var colorFaces: [Int] { catalog.colorFaces }
  /// The folders scanned.
  package let folders: [String]
  /// Where the scan's findings are kept between processes.
  let catalogCache: FontCatalogCache?
  /// Held while the folders are scanned (tens of milliseconds) and while a distance field is
  /// made (milliseconds): callers meanwhile sleep rather than spin.
  private let scanned = SleepingLock<FontCatalog?>(nil)
  private let engine: SleepingLock<Engine>
  /// The fallback chains made so far, by font stack: every label shaped asks for its stack's,
  /// and making one looks up some thirty names.
  private let chains = Mutex<[[String]: [Int]]>([:])

  /// A library of the .ttf, .otf and .ttc files in `folders` (searched recursively). The
  /// folders are scanned on first use, not here: a map whose labels all come from glyph PBFs,
  /// or that has no labels in view, never pays for opening every font file.
  ///
  /// Glyphs' distance fields are kept once made, up to `distanceFieldCacheBytes` of bitmaps.
  ///
  /// What the scan finds is kept in `catalogCache` (the user's cache folder by default; nil:
  /// none), and a later process whose folders hold the same files takes it from there; so are
  /// the distance fields made (``DistanceFieldFiles``, in its `distance-fields` folder).
  package init(
    folders: [String] = FontLibrary.systemFolders, distanceFieldCacheBytes: Int = 8 << 20,
    catalogCache: FontCatalogCache? = .user
  ) {
    self.folders = folders
    self.catalogCache = catalogCache
    engine = SleepingLock(
      Engine(fieldCacheBytes: distanceFieldCacheBytes, fieldFolder: catalogCache.map { $0.folder + "/distance-fields" })
    )
  }

  /// Bytes of distance fields kept now (bitmaps and a fixed charge a glyph).
  package var distanceFieldCacheBytesUsed: Int { withEngine { $0.fieldCacheUsed } }

  /// The faces found, scanning the folders once (callers meanwhile wait for the scan).
  var catalog: FontCatalog {
    scanned.withLock { known in
      if let known { return known }
      let made = FontCatalog(scanning: folders, cache: catalogCache)
      known = made
      return made
    }
  }

  deinit {
    engine.withLock { $0.close() }
  }

  /// "NotoSans-Regular" from ".../NotoSans-Regular.ttf".
  static func fileStem(_ path: String) -> String {
    let name = path.utf8.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self) } ?? path
    return name.utf8.split(separator: UInt8(ascii: ".")).first.map { String(decoding: $0, as: UTF8.self) } ?? name
  }

  /// A name reduced for matching: lower case, letters and digits only ("Noto Sans Regular"
  /// and "NotoSans-Regular" agree).
  static func normalized(_ name: String) -> String {
    // Font names are ASCII nearly always: their letters and digits, in lower case, without
    // Foundation's character sets (a catalog normalises three names for each of its faces).
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      var kept: [UInt8] = []
      kept.reserveCapacity(name.utf8.count)
      for byte in name.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept.append(byte)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept.append(byte | 0x20)
        default: break
        }
      }
      return String(decoding: kept, as: UTF8.self)
    }
    let kept = name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }
    return String(kept.map(Character.init))
  }

  /// The face a font-stack name names, if any ("Noto Sans Regular", "NotoSans-Bold",
  /// "Noto Sans" meaning its Regular).
  package func face(named name: String) -> Int? {
    let key = FontLibrary.normalized(name)
    let byName = catalog.byName
    return byName[key] ?? byName[key + "regular"]
  }

  /// The faces tried for a font stack, in order: its own fonts, then the fallback families in
  /// the stack's weight (Bold stacks fall back to bold faces where they exist).
  package func chain(for fontStack: [String]) -> [Int] {
    if let known = chains.withLock({ $0[fontStack] }) { return known }
    let made = makeChain(fontStack)
    chains.withLock { known in
      // Stacks come from styles, a few each; a process drawing many styles starts again.
      if known.count >= FontLibrary.keptChains { known = [:] }
      known[fontStack] = made
    }
    return made
  }

  /// The most chains kept (``chain(for:)``).
  static let keptChains = 256

  func makeChain(_ fontStack: [String]) -> [Int] {
    var chain: [Int] = []
    for name in fontStack { if let face = face(named: name), !chain.contains(face) { chain.append(face) } }
    let weight =
      fontStack.contains { $0.lowercased().contains("bold") }
      ? "Bold" : fontStack.contains { $0.lowercased().contains("italic") } ? "Italic" : "Regular"
    for family in FontLibrary.fallbackFamilies {
      if let face = face(named: family + " " + weight) ?? face(named: family), !chain.contains(face) {
        chain.append(face)
      }
    }
    return chain
  }

  /// The font id of face `index`.
  package static func fontID(face index: Int) -> Int32 { firstFontID + Int32(index) }

  /// Runs `body` with the FreeType/HarfBuzz engine (one caller at a time).
  func withEngine<Result>(_ body: (inout Engine) -> Result) -> Result {
    engine.withLock { body(&$0) }
  }

  /// The distance field of a shaped glyph (``GlyphKey/id`` a glyph index of the face).
  package func glyph(_ key: GlyphKey) -> SDFGlyph? {
    let index = Int(key.font - FontLibrary.firstFontID)
    guard faces.indices.contains(index) else { return nil }
    let face = faces[index]
    return withEngine { $0.distanceField(face, glyph: key.id) }
  }

  /// The metrics of a glyph of face `index` at 24 px, MapLibre's convention.
  func metrics(face index: Int, glyph: UInt32) -> GlyphMetrics? {
    let face = faces[index]
    return withEngine { $0.metrics(face, glyph: glyph) }
  }
}

/// The faces of a set of font folders, found once by opening every font file in them.
final class FontCatalog: Sendable {
  let faces: [FontFace]
  /// The faces with colour glyphs (emoji fonts), indices in ``faces``, in file order.
  let colorFaces: [Int]
  let unreadable: [GlyphError]
  /// Normalised names (full name, family and style, file stem) → index in ``faces``.
  let byName: [String: Int]

  /// The faces of the font files in `folders`: from `cache` when it holds a catalog of exactly
  /// these files, else opened with FreeType (and then kept in `cache`).
  init(scanning folders: [String], cache: FontCatalogCache? = nil) {
    let files = FontFiles.paths(in: folders).map(FontFileStamp.init(path:))
    let described: [[DescribedFace]]
    if let kept = cache?.described(folders: folders, files: files) {
      described = kept
    } else {
      var engine = Engine()
      defer { engine.close() }
      described = files.map { engine.describe($0.path) }
      cache?.store(folders: folders, files: files, faces: described)
    }
    var faces: [FontFace] = []
    var colorFaces: [Int] = []
    var unreadable: [GlyphError] = []
    for (file, found) in zip(files, described) {
      if found.isEmpty { unreadable.append(GlyphError(source: file.path, reason: "not a font FreeType can read")) }
      for face in found {
        if face.isColor { colorFaces.append(faces.count) }
        faces.append(face.face)
      }
    }
    var byName: [String: Int] = [:]
    for (index, face) in faces.enumerated() {
      for name in [face.fullName, face.family + " " + face.style, FontLibrary.fileStem(face.path)] {
        let key = FontLibrary.normalized(name)
        if byName[key] == nil { byName[key] = index }
      }
    }
    self.faces = faces
    self.colorFaces = colorFaces
    self.unreadable = unreadable
    self.byName = byName
  }
}

/// FreeType and HarfBuzz state: the library, open faces and HarfBuzz fonts. Used by one
/// thread at a time (``FontLibrary`` locks it).
struct Engine: @unchecked Sendable {
  /// Glyphs are rasterised and measured at one em.
  static let pixelSize: UInt32 = 24
  /// The distance field's spread beyond the ink, pixels (MapLibre's glyph border).
  static let spread: Int32 = 3
  static let loadFlags = Int32(FT_LOAD_DEFAULT) | Int32(FT_LOAD_NO_HINTING)

  private var library: FT_Library?
  private var open: [FontFace: (face: FT_Face, font: OpaquePointer)] = [:]
  /// Layout pixels (at 24 px) per pixel of the face as opened: 1 for outline fonts, less for
  /// bitmap fonts opened at their largest strike (colour emoji: 24 / 109).
  private(set) var pixelScales: [FontFace: Double] = [:]
  /// Faces with colour glyphs (drawn as pictures, not distance fields).
  private(set) var colorFaces = Set<FontFace>()
  private var metricsCache: [GlyphKeyInFace: GlyphMetrics?] = [:]
  /// Distance fields made so far (nil: the glyph has none), at most ``fieldCacheBytes`` of
  /// bitmaps: FreeType's SDF renderer takes milliseconds a glyph, and every map sharing the
  /// library draws the same letters (attribution lines, scale bars, labels of local fonts).
  private var fieldCache: [GlyphKeyInFace: SDFGlyph?] = [:]
  private(set) var fieldCacheUsed = 0
  /// Bytes of distance fields kept at most; past it the cache starts again empty.
  let fieldCacheBytes: Int
  /// Unusable files, so they are not retried.
  private var broken = Set<String>()
  private(set) var problems: [String] = []

  struct GlyphKeyInFace: Hashable {
    let face: FontFace
    let glyph: UInt32
  }

  /// Distance fields kept on disk (nil: none), and the faces whose kept fields were read, with
  /// their files' stamps and the glyphs kept.
  private let fieldFiles: DistanceFieldFiles?
  private var readFaces: [FontFace: (stamp: FontFileStamp, glyphs: Set<UInt32>)] = [:]
  /// The stamps of the open faces' files, taken as they were opened (none where the file
  /// changed meanwhile or has no stamp).
  private var openedStamps: [FontFace: FontFileStamp] = [:]

  /// An engine keeping up to `fieldCacheBytes` of distance fields in memory, and every field it
  /// makes in `fieldFolder` (nil: none).
  init(fieldCacheBytes: Int = 0, fieldFolder: String? = nil) {
    self.fieldCacheBytes = fieldCacheBytes
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else {
      fieldFiles = nil
      return
    }
    var spread = Engine.spread
    _ = FT_Property_Set(library, "sdf", "spread", &spread)
    _ = FT_Property_Set(library, "bsdf", "spread", &spread)
    self.library = library
    fieldFiles = fieldFolder.map { DistanceFieldFiles(folder: $0, freeType: Engine.version(of: library)) }
  }

  /// FreeType's version, "2.12.1": what it finds in a font and renders may change with it.
  static let freeTypeVersion: String = {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
    defer { FT_Done_FreeType(library) }
    return version(of: library)
  }()

  static func version(of library: FT_Library) -> String {
    var major: FT_Int = 0
    var minor: FT_Int = 0
    var patch: FT_Int = 0
    FT_Library_Version(library, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }

  /// Releases every open face, HarfBuzz font and the FreeType library.
  mutating func close() {
    for (_, handles) in open {
      // The HarfBuzz font holds a reference of its own to the face.
      hb_font_destroy(handles.font)
      FT_Done_Face(handles.face)
    }
    open = [:]
    if let library { FT_Done_FreeType(library) }
    library = nil
  }

  /// The faces of a font file (all faces of a collection), each with whether it has colour
  /// glyphs; none when FreeType cannot read it.
  mutating func describe(_ path: String) -> [DescribedFace] {
    guard let library else { return [] }
    var faces: [DescribedFace] = []
    var index = 0
    var count = 1
    while index < count, index < 64 {
      var face: FT_Face?
      guard FT_New_Face(library, path, FT_Long(index), &face) == 0, let face else {
        break
      }
      count = Int(face.pointee.num_faces)
      let family = face.pointee.family_name.map { String(cString: $0) } ?? FontLibrary.fileStem(path)
      let style = face.pointee.style_name.map { String(cString: $0) } ?? ""
      faces.append(
        DescribedFace(
          face: FontFace(path: path, index: index, family: family, style: style),
          isColor: face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0))
      FT_Done_Face(face)
      index += 1
    }
    return faces
  }

  /// The open FreeType face and HarfBuzz font of `face`, opened at 24 px on first use.
  mutating func handles(_ face: FontFace) -> (face: FT_Face, font: OpaquePointer)? {
    if let known = open[face] { return known }
    guard let library, !broken.contains(face.path) else { return nil }
    // The file's stamp on both sides of opening it: kept renderings are keyed by the file
    // FreeType read, so a file replaced meanwhile gets none.
    let stampBefore = fieldFiles == nil ? nil : FontFileStamp(path: face.path)
    var handle: FT_Face?
    guard FT_New_Face(library, face.path, FT_Long(face.index), &handle) == 0, let handle else {
      broken.insert(face.path)
      problems.append("\(face.path): the font cannot be opened; its characters fall back")
      return nil
    }
    guard let scale = Engine.size(handle), let font = hb_ft_font_create_referenced(handle) else {
      FT_Done_Face(handle)
      broken.insert(face.path)
      problems.append("\(face.path): the font cannot be sized; its characters fall back")
      return nil
    }
    let isColor = handle.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
    if isColor { colorFaces.insert(face) }
    hb_ft_font_set_load_flags(font, isColor ? Engine.colorLoadFlags : Engine.loadFlags)
    open[face] = (handle, font)
    pixelScales[face] = scale
    if let stampBefore, stampBefore.size >= 0, FontFileStamp(path: face.path) == stampBefore {
      openedStamps[face] = stampBefore
    }
    return (handle, font)
  }

  /// Sizes a face for 24 px text: outline fonts at 24 px, bitmap-only fonts at their largest
  /// strike. Returns layout pixels per pixel of the face as sized; nil when it cannot be sized.
  static func size(_ face: FT_Face) -> Double? {
    if face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 {
      return FT_Set_Pixel_Sizes(face, 0, Engine.pixelSize) == 0 ? 1 : nil
    }
    let count = Int(face.pointee.num_fixed_sizes)
    guard count > 0, let sizes = face.pointee.available_sizes else { return nil }
    let largest = (0..<count).max { sizes[$0].y_ppem < sizes[$1].y_ppem }!
    let pixelsPerEm = Double(sizes[largest].y_ppem) / 64
    guard pixelsPerEm >= 1, FT_Select_Size(face, FT_Int(largest)) == 0 else { return nil }
    return Double(Engine.pixelSize) / pixelsPerEm
  }

  /// Load flags for colour faces: their pictures, not outlines.
  static let colorLoadFlags = Int32(FT_LOAD_DEFAULT) | Int32(FT_LOAD_COLOR)

  /// Whether `face` has colour glyphs (opening it if needed).
  mutating func isColor(_ face: FontFace) -> Bool {
    _ = handles(face)
    return colorFaces.contains(face)
  }

  /// Whether the face has a glyph for `codePoint`.
  mutating func has(_ face: FontFace, _ codePoint: UInt32) -> Bool {
    guard let handles = handles(face) else { return false }
    return FT_Get_Char_Index(handles.face, FT_ULong(codePoint)) != 0
  }

  /// Where glyph tops are measured from, pixels above the baseline at 24 px: one line for
  /// every font (so that mixed scripts share a baseline), Noto Sans's ascender (1.069 em),
  /// which puts its glyphs where MapLibre's glyph PBFs put theirs.
  static let ascender = 26.0

  mutating func metrics(_ face: FontFace, glyph: UInt32) -> GlyphMetrics? {
    let key = GlyphKeyInFace(face: face, glyph: glyph)
    if let known = metricsCache[key] { return known }
    var result: GlyphMetrics?
    if let handles = handles(face),
      FT_Load_Glyph(handles.face, glyph, colorFaces.contains(face) ? Engine.colorLoadFlags : Engine.loadFlags) == 0
    {
      let metrics = handles.face.pointee.glyph.pointee.metrics
      // 26.6 fixed point in the face's pixels, to layout pixels.
      let scale = (pixelScales[face] ?? 1) / 64
      result = GlyphMetrics(
        width: (Double(metrics.width) * scale).rounded(.up), height: (Double(metrics.height) * scale).rounded(.up),
        left: (Double(metrics.horiBearingX) * scale).rounded(.down),
        top: (Double(metrics.horiBearingY) * scale).rounded(.up) - Engine.ascender,
        advance: Double(metrics.horiAdvance) * scale)
    }
    metricsCache[key] = .some(result)
    return result
  }

  /// The glyph's distance field in MapLibre's encoding (``field(of:glyph:)`` of FreeType's
  /// rendering, read from the kept renderings where there is one), made once while the cache has room.
  mutating func distanceField(_ face: FontFace, glyph: UInt32) -> SDFGlyph? {
    let key = GlyphKeyInFace(face: face, glyph: glyph)
    if let known = fieldCache[key] { return known }
    // Opened first: the kept renderings are those of the file as FreeType opened it.
    if let fieldFiles, handles(face) != nil, readFaces[face] == nil, let stamp = openedStamps[face] {
      // The face's kept renderings, read once: into the memory cache, within its budget.
      let kept = fieldFiles.renderings(of: face, stamp: stamp)
      readFaces[face] = (stamp, Set(kept.keys))
      for (id, rendered) in kept where id != glyph {
        remember(rendered.flatMap { Engine.field(of: $0, glyph: id) }, for: GlyphKeyInFace(face: face, glyph: id))
      }
      if let rendered = kept[glyph] {
        let field = rendered.flatMap { Engine.field(of: $0, glyph: glyph) }
        remember(field, for: key)
        return field
      }
    }
    let outcome = render(face, glyph: glyph)
    let rendered: RenderedGlyph?
    switch outcome {
    case .rendered(let made): rendered = made
    case .refused, .failed: rendered = nil
    }
    if let fieldFiles, outcome.isLasting, let read = readFaces[face], !read.glyphs.contains(glyph) {
      fieldFiles.keep(rendered, glyph: glyph, of: face, stamp: read.stamp)
      readFaces[face]?.glyphs.insert(glyph)
    }
    let field = rendered.flatMap { Engine.field(of: $0, glyph: glyph) }
    remember(field, for: key)
    return field
  }

  /// Keeps `field` in the memory cache when it fits the budget (emptying the cache when full).
  private mutating func remember(_ field: SDFGlyph?, for key: GlyphKeyInFace) {
    let bytes = 64 + (field?.bitmap.count ?? 0)
    guard bytes <= fieldCacheBytes else { return }
    if fieldCacheUsed + bytes > fieldCacheBytes {
      fieldCache = [:]
      fieldCacheUsed = 0
    }
    if fieldCache.updateValue(field, forKey: key) == nil { fieldCacheUsed += bytes }
  }

  /// What rendering a glyph gave: FreeType's distance field, a glyph of the face that has none
  /// (a lasting answer for that file), or a failure of the moment (the face could not be opened,
  /// FreeType ran out of memory), which is not kept on disk.
  enum Rendering {
    case rendered(RenderedGlyph)
    case refused
    case failed

    /// Whether the answer holds for every process reading the same file with the same FreeType.
    var isLasting: Bool {
      switch self {
      case .rendered, .refused: true
      case .failed: false
      }
    }
  }

  /// FreeType's distance field of a glyph of `face` at 24 px; refused when the glyph cannot be
  /// loaded or rendered, or is far larger than an em.
  mutating func render(_ face: FontFace, glyph: UInt32) -> Rendering {
    guard let handles = handles(face) else { return .failed }
    guard !colorFaces.contains(face) else { return .refused }
    let loaded = FT_Load_Glyph(handles.face, glyph, Engine.loadFlags)
    guard loaded == 0 else { return loaded == FT_Error(FT_Err_Out_Of_Memory) ? .failed : .refused }
    let slot = handles.face.pointee.glyph!
    let advance = Double(slot.pointee.metrics.horiAdvance) / 64
    guard slot.pointee.metrics.width > 0, slot.pointee.metrics.height > 0 else {
      return .rendered(
        RenderedGlyph(advance: advance, isInked: false, columns: 0, rows: 0, left: 0, top: 0, pixels: []))
    }
    // A glyph far larger than an em (a broken or hostile font) is left out, not rendered.
    let limit = FT_Pos(GlyphRangeDecoder.maximumGlyphSide * 64)
    guard slot.pointee.metrics.width <= limit, slot.pointee.metrics.height <= limit else { return .refused }
    let made = FT_Render_Glyph(slot, FT_RENDER_MODE_SDF)
    guard made == 0 else { return made == FT_Error(FT_Err_Out_Of_Memory) ? .failed : .refused }
    let bitmap = slot.pointee.bitmap
    let columns = Int(bitmap.width)
    let rows = Int(bitmap.rows)
    guard columns <= RenderedGlyph.largestSide, rows <= RenderedGlyph.largestSide, let buffer = bitmap.buffer else {
      return .refused
    }
    var pixels = [UInt8](repeating: 0, count: columns * rows)
    let pitch = Int(bitmap.pitch)
    for row in 0..<rows {
      for column in 0..<columns { pixels[row * columns + column] = buffer[row * pitch + column] }
    }
    return .rendered(
      RenderedGlyph(
        advance: advance, isInked: true, columns: columns, rows: rows, left: Int(slot.pointee.bitmap_left),
        top: Int(slot.pointee.bitmap_top), pixels: pixels))
  }

  /// A rendered glyph as MapLibre's distance field: 192 on the outline, 255/8 per pixel, and
  /// its ink box; a blank glyph for one without ink, nil for one too small to hold a field.
  static func field(of rendered: RenderedGlyph, glyph: UInt32) -> SDFGlyph? {
    guard rendered.isInked else {
      return SDFGlyph(id: glyph, bitmap: [], width: 0, height: 0, left: 0, top: 0, advance: rendered.advance)
    }
    let border = SDFGlyph.border
    guard rendered.columns > 2 * border, rendered.rows > 2 * border else { return nil }
    let pixels = rendered.pixels.map { value in
      // FreeType: 128 on the outline, ±128 over the spread; MapLibre: 192, 255/8 per pixel.
      let distance = (Double(value) - 128) / 128 * Double(Engine.spread)
      return UInt8(clamping: max(0, min(255, (192 + 255 / 8 * distance).rounded())))
    }
    return SDFGlyph(
      id: glyph, bitmap: pixels, width: rendered.columns - 2 * border, height: rendered.rows - 2 * border,
      left: rendered.left + border, top: rendered.top - border - Int(clamping: Engine.ascender),
      advance: rendered.advance)
  }

}
