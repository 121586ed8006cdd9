import Foundation
import TesseraData
import TesseraNumbers

/// FreeType's distance field of a glyph at 24 px, as its SDF renderer made it (before
/// ``Engine/field(of:glyph:)`` converts it to MapLibre's encoding): what ``DistanceFieldFiles``
/// keeps, so that a change in that conversion never meets a stale field.
struct RenderedGlyph: Sendable, Equatable {
  /// Pen advance, pixels.
  let advance: Double
  /// Whether the glyph has ink; the rest is empty when it has not (a space).
  let isInked: Bool
  /// The bitmap's width, pixels.
  let columns: Int
  /// The bitmap's height, pixels.
  let rows: Int
  /// The bitmap's left edge from the pen, pixels (FreeType's `bitmap_left`).
  let left: Int
  /// The bitmap's top edge above the baseline, pixels (FreeType's `bitmap_top`).
  let top: Int
  /// `columns × rows` bytes, rows top first: 128 on the outline, ±128 over the spread.
  let pixels: [UInt8]

  /// The largest side of a rendered bitmap read or made: a glyph of
  /// ``GlyphRangeDecoder/maximumGlyphSide`` pixels and its spread, with room to spare.
  static let largestSide = GlyphRangeDecoder.maximumGlyphSide + 4 * Int(Engine.spread) + 4
}

/// FreeType's distance fields of local fonts' glyphs kept on disk between processes: its SDF
/// renderer takes about half a millisecond a glyph, and a one-shot render of a map labelled from
/// local fonts made a few hundred (some 50 ms of CPU), its attribution line some forty.
///
/// One file per face in `distance-fields` inside Tessera's cache folder (``FontCatalogCache``),
/// named by a hash of its key: the FreeType version, the field's size and spread, and the face's
/// file (path, size, modification time) and index, so that a changed font or FreeType never
/// gives another's fields. The file starts with its key and then holds records appended as
/// glyphs are made, each with its length and an FNV-1a checksum; reading stops at the first
/// record that is not whole and right (a record cut off by a crash, two writers at once), and
/// a field is only taken from a record whose sizes agree with its bitmap. The folder and files
/// follow ``PrivateFolder``'s rules; files are made under a temporary name and linked into place
/// with their key (never two headers), records are appended in one `write` each, a file grows
/// to at most ``largestFile`` bytes and at most ``capacity`` files are kept (the one written
/// longest ago goes first). Nothing here fails a render: any problem means rendering the glyph.
struct DistanceFieldFiles: Sendable {
  /// The folder.
  let folder: String
  /// The version of FreeType making the fields (``Engine``'s library).
  let freeType: String

  /// The largest file read or grown, in bytes.
  static let largestFile = 4 << 20
  /// The most files kept.
  static let capacity = 64
  /// Seconds after which a temporary file is taken as left behind by an interrupted process.
  static let abandonedAfter = 600
  static let suffix = ".fields"
  /// The largest record read, in bytes (a rendering of ``RenderedGlyph/largestSide`` squared).
  static let largestRecord = 64 + RenderedGlyph.largestSide * RenderedGlyph.largestSide

  /// The key of `face`'s file: everything its fields depend on.
  func key(of face: FontFace, stamp: FontFileStamp) -> [UInt8] {
    let text = [
      "tessera distance fields 1", "freetype \(freeType)",
      "size \(Engine.pixelSize) spread \(Engine.spread) flags \(Engine.loadFlags)", face.path, "face \(face.index)",
      "file \(stamp.size) \(stamp.seconds) \(stamp.nanoseconds)",
    ].joined(separator: "\n")
    return Array(text.utf8)
  }

  /// The renderings kept for `face` (nil inside: a glyph FreeType could not render); empty
  /// when there are none.
  func renderings(of face: FontFace, stamp: FontFileStamp) -> [UInt32: RenderedGlyph?] {
    guard let directory = PrivateFolder.descriptor(folder) else { return [:] }
    defer { close(directory) }
    let key = key(of: face, stamp: stamp)
    guard let bytes = PrivateFolder.contents(of: Self.fileName(key), in: directory, atMost: Self.largestFile) else {
      return [:]
    }
    var reader = ByteReader(bytes)
    guard let length = reader.uint32(), let stored = reader.take(Int(length)), stored.elementsEqual(key) else {
      // Another key's file (a hash collision) or a damaged one: gone, to be made again.
      unlinkat(directory, Self.fileName(key), 0)
      return [:]
    }
    var renderings: [UInt32: RenderedGlyph?] = [:]
    while !reader.isAtEnd {
      switch Self.record(from: &reader) {
      case .whole(let payload):
        if let (glyph, rendered) = Self.decode(payload) {
          renderings[glyph] = .some(rendered)
          continue
        }
        // A record that does not add up: as damaged.
        unlinkat(directory, Self.fileName(key), 0)
        return renderings
      case .damaged:
        // Wrong bytes inside the file: it would stop every later reader here, so it goes.
        unlinkat(directory, Self.fileName(key), 0)
        return renderings
      case .cutShort:
        // The end of a record being appended, or cut off: what came before stands.
        return renderings
      }
    }
    return renderings
  }

  /// Appends `rendered` (nil: FreeType could not render `glyph`) to `face`'s file, making the
  /// file when absent.
  func keep(_ rendered: RenderedGlyph?, glyph: UInt32, of face: FontFace, stamp: FontFileStamp) {
    guard let directory = PrivateFolder.descriptor(folder, makingParents: true) else { return }
    defer { close(directory) }
    let key = key(of: face, stamp: stamp)
    let name = Self.fileName(key)
    var status = stat()
    if fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) != 0 {
      let entries = PrivateFolder.entriesOldestFirst(
        in: directory, suffix: Self.suffix, removingTemporaryFilesOlderThan: Self.abandonedAfter)
      for oldest in entries.dropLast(Self.capacity - 1) { unlinkat(directory, oldest, 0) }
      // The header alone under a temporary name, linked into place: a file another process
      // made meanwhile is kept, never given a second header.
      var header: [UInt8] = []
      ByteReader.append(UInt32(key.count), to: &header)
      header += key
      let temporary = ".\(name).\(getpid()).\(UInt64.random(in: 0...UInt64.max))"
      guard PrivateFolder.replace(temporary + ".new", in: directory, with: header, temporary: temporary) else { return }
      linkat(directory, temporary + ".new", directory, name, 0)
      unlinkat(directory, temporary + ".new", 0)
    }
    let file = openat(directory, name, O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else { return }
    defer { close(file) }
    guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { return }
    // Only records a reader takes, appended after this key's header, to a file within its size.
    let payload = Self.encode(rendered, glyph: glyph)
    guard Self.decode(payload) != nil else { return }
    var header = [UInt8](repeating: 0, count: 4 + key.count)
    var expected: [UInt8] = []
    ByteReader.append(UInt32(key.count), to: &expected)
    expected += key
    let headerRead = header.withUnsafeMutableBytes { pread(file, $0.baseAddress!, $0.count, 0) }
    guard headerRead == header.count, header == expected, status.st_size <= Self.largestFile else {
      unlinkat(directory, name, 0)
      return
    }
    var record: [UInt8] = []
    ByteReader.append(UInt32(payload.count), to: &record)
    ByteReader.append(FNV1a.hash(payload), to: &record)
    record += payload
    guard status.st_size + record.count <= Self.largestFile else { return }
    let written = record.withUnsafeBytes { write(file, $0.baseAddress!, $0.count) }
    if written != record.count {
      // Half a record (a full disk): no later record would be read past it.
      unlinkat(directory, name, 0)
    }
  }

  static func fileName(_ key: [UInt8]) -> String { FNV1a.paddedHex(FNV1a.hash(key)) + suffix }

  // MARK: Records

  /// The glyph, then 0 (not rendered) or 1 and the advance (Float64 bits), whether it is inked
  /// (0 or 1), columns, rows, left and top (Int32) and the pixels, all little-endian.
  static func encode(_ rendered: RenderedGlyph?, glyph: UInt32) -> [UInt8] {
    var bytes: [UInt8] = []
    ByteReader.append(glyph, to: &bytes)
    guard let rendered else {
      bytes.append(0)
      return bytes
    }
    bytes.append(1)
    ByteReader.append(rendered.advance.bitPattern, to: &bytes)
    bytes.append(rendered.isInked ? 1 : 0)
    for value in [rendered.columns, rendered.rows, rendered.left, rendered.top] {
      ByteReader.append(UInt32(bitPattern: Int32(clamping: value)), to: &bytes)
    }
    bytes += rendered.pixels
    return bytes
  }

  /// The glyph and rendering of a record, or nil when it is not one as written: its sizes
  /// agree with its pixels, an uninked glyph has none, its advance is finite.
  static func decode(_ payload: [UInt8]) -> (UInt32, RenderedGlyph?)? {
    var reader = ByteReader(payload)
    guard let glyph = reader.uint32(), let present = reader.uint8() else { return nil }
    if present == 0 { return reader.isAtEnd ? (glyph, nil) : nil }
    guard present == 1, let advanceBits = reader.uint64(), let inked = reader.uint8(), inked <= 1,
      let columns = reader.int32(), let rows = reader.int32(), let left = reader.int32(), let top = reader.int32()
    else { return nil }
    let pixels = Array(reader.rest())
    let advance = Double(bitPattern: advanceBits)
    let sides = 0...RenderedGlyph.largestSide
    // The bounds of glyph PBFs' metrics (``GlyphRangeDecoder``): no real glyph lies beyond them.
    let offsets = -10_000...10_000
    guard advance.isFinite, (0...10_000).contains(advance), offsets.contains(left), offsets.contains(top),
      sides.contains(columns), sides.contains(rows), pixels.count == columns * rows,
      inked == 1 || (columns == 0 && rows == 0 && left == 0 && top == 0)
    else { return nil }
    let rendered = RenderedGlyph(
      advance: advance, isInked: inked == 1, columns: columns, rows: rows, left: left, top: top, pixels: pixels)
    return (glyph, rendered)
  }

  /// A record as read: whole (its length and checksum right), damaged (wrong bytes that a
  /// whole record's length would cover) or cut short (the file ends inside it).
  enum Record {
    case whole([UInt8])
    case damaged
    case cutShort
  }

  /// The next record (the reader not at its end).
  static func record(from reader: inout ByteReader) -> Record {
    guard let length = reader.uint32(), let checksum = reader.uint64() else { return .cutShort }
    guard length <= largestRecord else { return .damaged }
    guard let payload = reader.take(Int(length)) else { return .cutShort }
    return FNV1a.hash(payload) == checksum ? .whole(Array(payload)) : .damaged
  }
}
