import Foundation
import Tessera
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers
import TesseraRender
import TesseraService
import TesseraStyle
import TesseraText

/// The fuzz target of Tessera's decoders of outside data. The first byte picks the decoder, the
/// rest is its input:
///   0 Mapbox Vector Tile (raw or gzip) · 1 PMTiles archive (in memory, a few tiles read)
///   2 PNG / JPEG / WebP / GIF image · 3 JSON document · 4 MapLibre style (parsed, every property
///   evaluated at a few zooms, also for features whose attributes are hostile numbers)
///   5 GeoJSON (cut into tiles at zooms 0, 3 and 12) · 6 scene (parsed, its camera worked out)
///   7 TileJSON (read as source metadata) · 8 sprite index JSON (cut from a 64×32 sheet and
///   packed into a pattern atlas) · 9 glyph PBF (decoded, a label laid out and its glyphs packed)
///   · 10 font file (read by FreeType, a label shaped by HarfBuzz, its glyphs rendered as
///   distance fields) · 11 scene overlay fields (read as overlays; paths as encoded polylines; lines as Static
///   Maps `path=` and `markers=` values) · 12 Google
///   styling JSON and Static Maps `style=` rules (one per line) · 13 `tessera serve`'s request
///   readers: the first line is a request target, an optional `Content-Type: …` line follows,
///   the rest is a body (``ServiceRequestPayload``)
/// With `TESSERA_FUZZ_ONLY=N` in the environment every input goes to decoder N (its first byte
/// still dropped), so one decoder's corpus stays on it while libFuzzer mutates.
/// `tessera-fuzz --write-seeds DIR` writes a starting corpus (see Seeds.swift).
///
/// libFuzzer build (see docs/testing.md, "Fuzzing"):
///   swift build -c release --product tessera-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING
///   .build/release/tessera-fuzz CORPUS_DIR -max_len=300000
/// A normal build is a replayer: `tessera-fuzz FILE…` runs each file through the target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  switch (FuzzSelection.only ?? data[0]) % FuzzSelection.decoders {
  case 0:
    _ = try? MVTDecoder.decode(payload, inflateLimit: 16 << 20)
  case 1:
    if let archive = try? PMTilesSource(bytes: payload, name: "fuzz.pmtiles") {
      for tile in [TileIDs.zero, TileIDs.monaco14] {
        if case .data(let bytes)? = try? archive.fetch(tile) {
          _ = try? MVTDecoder.decode(bytes, inflateLimit: 16 << 20)
        }
      }
    }
  case 2:
    _ = try? ImageCodec.decode(payload, source: "fuzz", limits: DecodeLimits(maxPixels: 1 << 22))
  case 3:
    _ = try? JSONParser.parse(payload)
  case 4:
    if let style = try? Style.parse(payload, source: "fuzz") {
      for layer in style.layers {
        for property in layer.properties.values {
          for zoom in [0.0, 7.5, 22] { _ = property.evaluate(zoom: zoom) }
          for feature in HostileFeature.all { _ = property.evaluate(zoom: 12, feature: feature) }
        }
        for feature in HostileFeature.all { _ = layer.accepts(feature, zoom: 12) }
      }
    }
  case 6:
    if let scene = try? Scene.parse(payload, path: "/fuzz/scene.json") {
      _ = try? scene.mapState()
      if let animation = scene.animation, let state = try? scene.mapState() {
        _ = try? animation.animation(from: state)
      }
    }
  case 7:
    if case .object(let object)? = try? JSONParser.parse(payload) { _ = TileSourceMetadata(tileJSON: object) }
  case 8:
    if let sheet = try? SpriteSheet.decode(index: payload, sheet: FuzzSprite.sheet, source: "fuzz") {
      _ = PatternAtlas(images: sheet.images)
    }
  case 9:
    FuzzText.glyphPBF(payload)
  case 10:
    FuzzText.fontFile(payload)
  case 12:
    _ = try? MapStyle(jsonString: String(decoding: payload, as: UTF8.self), source: "fuzz")
    _ = try? MapStyle(staticMapsRules: String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init))
  case 11:
    let text = String(decoding: payload, as: UTF8.self)
    _ = try? EncodedPolyline.decode(text)
    for line in text.split(separator: "\n").prefix(64) {
      _ = try? StaticMapsSyntax.Path(String(line))
      _ = try? StaticMapsSyntax.Markers(String(line))
    }
    if let json = try? JSONParser.parse(payload) {
      _ = try? MapOverlay.overlays(sceneFields: json, source: "fuzz", access: .inlineOnly())
    }
  case 13:
    let request = ServiceRequestPayload(payload)
    ServiceReaders.exercise(target: request.target, body: request.body, contentType: request.contentType)
  default:
    if let json = try? JSONParser.parse(payload), let source = try? GeoJSONSource(data: json, name: "fuzz") {
      for tile in [TileIDs.zero, TileID(z: 3, x: 4, y: 3), TileID(z: 12, x: 2048, y: 1361)] {
        _ = source.makeTile(tile)
      }
    }
  }
  return 0
}

/// Which decoder an input goes to.
enum FuzzSelection {
  /// How many decoders the first byte picks from (modulo).
  static let decoders: UInt8 = 14
  /// The decoder `TESSERA_FUZZ_ONLY` forces, read once; nil: the first byte picks.
  static let only: UInt8? = ProcessInfo.processInfo.environment["TESSERA_FUZZ_ONLY"].flatMap { UInt8($0) }
}

/// A request for the service's readers: the request target (the first line, a final CR
/// dropped), the `Content-Type` of an optional second line `Content-Type: …`, and the body (the
/// rest).
struct ServiceRequestPayload {
  var target: String
  var contentType: String?
  var body: [UInt8]

  init(_ payload: [UInt8]) {
    let newline = UInt8(ascii: "\n")
    func line(_ bytes: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
      guard let end = bytes.firstIndex(of: newline) else { return (bytes, []) }
      var line = bytes[..<end]
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      return (line, bytes[(end + 1)...])
    }
    let (first, afterTarget) = line(payload[...])
    target = String(decoding: first, as: UTF8.self)
    let (second, afterHeader) = line(afterTarget)
    let header = String(decoding: second, as: UTF8.self)
    let prefix = "content-type:"
    if header.lowercased().hasPrefix(prefix) {
      contentType = String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
      body = Array(afterHeader)
    } else {
      contentType = nil
      body = Array(afterTarget)
    }
  }
}

/// Features whose every attribute is one hostile number (±1e300, ±infinity, NaN, −0, 2^63).
struct HostileFeature: StyleFeature {
  let value: Double

  static let all = [1e300, -1e300, Double.infinity, -.infinity, .nan, -0.0, 9_223_372_036_854_775_808].map {
    HostileFeature(value: $0)
  }

  func property(_ key: String) -> StyleValue? { .number(value) }
  var properties: [String: StyleValue] { ["value": .number(value)] }
  var geometryTypeName: String { "Point" }
  var identifier: StyleValue? { .number(value) }
}

/// The sheet picture sprite indexes are cut from.
enum FuzzSprite {
  static let sheet: [UInt8] = {
    var image = RGBAImage(width: 64, height: 32)
    for y in 0..<32 {
      for x in 0..<64 { image.setPixel(x: x, y: y, (UInt8(x * 4), UInt8(y * 8), 90, UInt8((x + y) * 2))) }
    }
    return (try? PNGCodec.encode(image)) ?? []
  }()
}

/// Text inputs: glyph PBFs and font files.
enum FuzzText {
  static let label = StyledText(sections: [TextSection(text: "Rue 12 شارع नई ถนน 北京 (x)")])

  static func glyphPBF(_ payload: [UInt8]) {
    guard let glyphs = try? GlyphRangeDecoder.decode(payload, source: "fuzz.pbf") else { return }
    let store = GlyphStore(loader: { _, start in start == 0 ? (payload, "fuzz.pbf") : nil })
    _ = glyphs.count
    let shaping = store.shape(label, fontStack: ["Fuzz"], options: ShapingOptions(maxWidth: 120))
    for glyph in shaping.glyphs { _ = store.atlasRect(glyph.glyph) }
  }

  /// The font file is written to a folder of its own and read back as a font library.
  static func fontFile(_ payload: [UInt8]) {
    let folder = NSTemporaryDirectory() + "tessera-fuzz-font-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/Fuzz-Regular.ttf"
    guard FileManager.default.createFile(atPath: path, contents: Data(payload)) else { return }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fonts = FontLibrary(folders: [folder])
    let store = GlyphStore(loader: nil, fonts: fonts)
    let shaping = store.shape(label, fontStack: ["Fuzz Regular"], options: ShapingOptions(maxWidth: 120))
    for glyph in shaping.glyphs.prefix(32) { _ = store.atlasRect(glyph.glyph) }
  }
}

enum TileIDs {
  static let zero = TileID(z: 0, x: 0, y: 0)
  static let monaco14 = TileID(z: 14, x: 8529, y: 5974)
}

#if FUZZING
  /// libFuzzer's driver (part of the runtime `-sanitize=fuzzer` links).
  @_silgen_name("LLVMFuzzerRunDriver")
  func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
  ) -> CInt

  /// SwiftPM makes an executable's `main` this symbol; hand the process to libFuzzer.
  @_cdecl("tessera_fuzz_main")
  func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
  }
#else
  @main
  enum Replay {
    static func main() {
      let paths = Array(CommandLine.arguments.dropFirst())
      guard !paths.isEmpty else {
        FileHandle.standardError.write(
          Data(
            ("usage: tessera-fuzz FILE… (replays inputs through the fuzz target)\n"
              + "       tessera-fuzz --write-seeds DIR (writes a starting corpus)\n").utf8))
        exit(2)
      }
      if paths[0] == "--write-seeds", paths.count == 2 {
        do {
          let count = try Seeds.write(to: paths[1])
          print("\(paths[1]): \(count) seeds")
        } catch {
          FileHandle.standardError.write(Data("tessera-fuzz: \(error)\n".utf8))
          exit(1)
        }
        return
      }
      for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else {
          FileHandle.standardError.write(Data("tessera-fuzz: cannot read \(path)\n".utf8))
          exit(1)
        }
        let bytes = [UInt8](data)
        _ = bytes.withUnsafeBufferPointer { fuzzOneInput($0.baseAddress!, $0.count) }
        print("\(path): ok")
      }
    }
  }
#endif
