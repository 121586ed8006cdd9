import CSQLite
import Foundation
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import TesseraService

/// tileserver-gl's data and font endpoints over real HTTP on 127.0.0.1: a config whose `data`
/// holds the shared Monaco MBTiles and whose fonts folder holds a full font and one with only
/// some of its glyphs.
@Suite struct TileserverGLDataTests {
  static let regular = "KlokanTech Noto Sans Regular"
  static let bold = "KlokanTech Noto Sans Bold"

  /// A tileserver-gl folder: `data/monaco.mbtiles`, `fonts/{Regular, Bold}` linked to the
  /// shared glyphs and `fonts/Partial` (Regular's even code points of 0-255 only).
  static func makeFolder() throws -> String {
    let folder = try TileserverGLConfigTests.folder()
    let files = FileManager.default
    try files.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
    try files.createSymbolicLink(
      atPath: folder + "/data/monaco.mbtiles",
      withDestinationPath: SharedData.path("data/vector/monaco-openmaptiles.mbtiles"))
    try files.createSymbolicLink(
      atPath: folder + "/data/monaco.pmtiles",
      withDestinationPath: SharedData.path("data/vector/monaco-openmaptiles.pmtiles"))
    try files.createDirectory(atPath: folder + "/fonts/Partial", withIntermediateDirectories: true)
    for font in [regular, bold] {
      try files.createSymbolicLink(
        atPath: folder + "/fonts/" + font, withDestinationPath: SharedData.path("data/glyphs/" + font))
    }
    let even = try glyphs(try SharedData.bytes("data/glyphs/\(regular)/0-255.pbf")).filter { $0.key % 2 == 0 }
    var stack: [UInt8] = []
    GlyphRanges.append(field: 1, Array("Partial".utf8)[...], to: &stack)
    GlyphRanges.append(field: 2, Array("0-255".utf8)[...], to: &stack)
    for code in even.keys.sorted() { GlyphRanges.append(field: 3, even[code]![...], to: &stack) }
    var file: [UInt8] = []
    GlyphRanges.append(field: 1, stack[...], to: &file)
    try Data(file).write(to: URL(fileURLWithPath: folder + "/fonts/Partial/0-255.pbf"))
    try TileserverGLConfigTests.write(
      """
      {
        "options": {"paths": {"root": "", "fonts": "fonts", "mbtiles": "data", "pmtiles": "data"}},
        "data": {"monaco": {"mbtiles": "monaco.mbtiles"}, "archive": {"pmtiles": "monaco.pmtiles"}}
      }
      """, to: folder + "/config.json")
    return folder
  }

  /// The glyphs of a glyph range file by code point (each glyph message's bytes).
  static func glyphs(_ file: [UInt8]) throws -> [Int: [UInt8]] {
    var result: [Int: [UInt8]] = [:]
    for (number, stack) in try #require(GlyphRanges.fields(file[...])) where number == 1 {
      for (field, glyph) in try #require(GlyphRanges.fields(stack)) where field == 3 {
        let members = try #require(GlyphRanges.fields(glyph))
        let id = try #require(members.first { $0.0 == 1 })
        var index = id.1.startIndex
        let code = try #require(GlyphRanges.varint(id.1, at: &index))
        result[code] = Array(glyph)
      }
    }
    return result
  }

  /// A tile's bytes read from the MBTiles file with SQLite (TMS rows).
  static func storedTile(_ path: String, z: Int32, x: Int32, y: Int32) throws -> [UInt8] {
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
      throw LoopbackClient.Failure(description: "cannot open \(path)")
    }
    defer { sqlite3_close_v2(handle) }
    var statement: OpaquePointer?
    let sql = "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw LoopbackClient.Failure(description: "cannot prepare")
    }
    defer { sqlite3_finalize(statement) }
    sqlite3_bind_int(statement, 1, z)
    sqlite3_bind_int(statement, 2, x)
    sqlite3_bind_int(statement, 3, (1 << z) - 1 - y)
    guard sqlite3_step(statement) == SQLITE_ROW, let blob = sqlite3_column_blob(statement, 0) else {
      throw LoopbackClient.Failure(description: "no tile \(z)/\(x)/\(y)")
    }
    return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(statement, 0))))
  }

  static func start(_ folder: String, publicURL: String? = nil) throws -> RenderService {
    try RenderServiceTests.start { configuration in
      do {
        configuration = try ServiceConfiguration(file: folder + "/config.json")
      } catch {
        Issue.record("the config was refused: \(error)")
      }
      configuration.port = 0
      configuration.corsOrigin = "*"
      configuration.publicURL = publicURL
      configuration.logSink = { _ in }
    }
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func dataTilesAreServedAsStoredWithTheirTileJSON() throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let service = try Self.start(folder)
    defer { service.shutdown() }
    let port = service.port
    // Monaco at zoom 14: the bytes of the SQLite row, gzip-compressed, as they are.
    let stored = try Self.storedTile(
      SharedData.path("data/vector/monaco-openmaptiles.mbtiles"), z: 14, x: 8529, y: 5974)
    #expect(stored.starts(with: [0x1f, 0x8b]))
    let tile = try LoopbackClient.request(port: port, "/data/monaco/14/8529/5974.pbf")
    #expect(tile.status == 200, "\(String(decoding: tile.body, as: UTF8.self))")
    #expect(tile.body == stored)
    #expect(tile.header("Content-Encoding") == "gzip")
    #expect(tile.header("Content-Type") == "application/x-protobuf")
    #expect(tile.header("Access-Control-Allow-Origin") == "*")
    let tag = try #require(tile.header("ETag"))
    let again = try LoopbackClient.request(port: port, "/data/monaco/14/8529/5974.pbf", headers: ["If-None-Match": tag])
    #expect(again.status == 304 && again.body.isEmpty)
    // Inside the zoom range but not stored: 204; outside it, off the pyramid, wrong format: refused.
    #expect(try LoopbackClient.request(port: port, "/data/monaco/14/0/0.pbf").status == 204)
    #expect(try LoopbackClient.request(port: port, "/data/monaco/15/0/0.pbf").status == 404)
    #expect(try LoopbackClient.request(port: port, "/data/monaco/3/8/0.pbf").status == 400)
    #expect(try LoopbackClient.request(port: port, "/data/monaco/3/x/0.pbf").status == 400)
    #expect(try LoopbackClient.request(port: port, "/data/monaco/14/8529/5974.png").status == 400)
    #expect(try LoopbackClient.request(port: port, "/data/other/14/8529/5974.pbf").status == 404)
    // The TileJSON.
    let answer = try LoopbackClient.request(port: port, "/data/monaco.json")
    #expect(answer.status == 200)
    let json = try #require(try JSONParser.parse(answer.body).object)
    #expect(json["name"]?.string == "Monaco - OpenMapTiles schema (tilemaker 2.2.0)")
    #expect(json["format"]?.string == "pbf")
    #expect(json["minzoom"]?.number == 0 && json["maxzoom"]?.number == 14)
    #expect(json["bounds"]?.array?.compactMap(\.number) == [7.409205, 43.72335, 7.448637, 43.75169])
    #expect(json["center"]?.array?.compactMap(\.number) == [7.428921, 43.73752, 7])
    #expect(json["attribution"]?.string?.contains("OpenStreetMap") == true)
    let layers = try #require(json["vector_layers"]?.array)
    #expect(layers.contains { $0.object?["id"]?.string == "transportation" })
    #expect(json["tiles"]?.array?.first?.string == "/data/monaco/{z}/{x}/{y}.pbf")
    let tileJSONTag = try #require(answer.header("ETag"))
    #expect(
      try LoopbackClient.request(port: port, "/data/monaco.json", headers: ["If-None-Match": tileJSONTag]).status
        == 304)
    // The lists.
    let data = try #require(try JSONParser.parse(try LoopbackClient.request(port: port, "/data.json").body).array)
    #expect(data.compactMap { $0.object?["id"]?.string } == ["archive", "monaco"])
    let index = try #require(try JSONParser.parse(try LoopbackClient.request(port: port, "/index.json").body).array)
    #expect(index.contains { $0.object?["id"]?.string == "monaco" })
    let rendered = try #require(
      try JSONParser.parse(try LoopbackClient.request(port: port, "/rendered.json").body).array)
    #expect(!rendered.isEmpty && !rendered.contains { $0.object?["id"]?.string == "monaco" })
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func fontsAreListedAndCombinedStacksMergedGlyphByGlyph() throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let service = try Self.start(folder)
    defer { service.shutdown() }
    let port = service.port
    let list = try LoopbackClient.request(port: port, "/fonts.json")
    #expect(list.status == 200 && list.header("Access-Control-Allow-Origin") == "*")
    let names = try #require(try JSONParser.parse(list.body).array).compactMap(\.string)
    #expect(names == [Self.bold, Self.regular, "Partial"])
    // One stack: the file as it is.
    let single = try LoopbackClient.request(port: port, "/fonts/KlokanTech%20Noto%20Sans%20Bold/0-255.pbf")
    #expect(single.status == 200 && single.header("Content-Type") == "application/x-protobuf")
    let boldFile = try SharedData.bytes("data/glyphs/\(Self.bold)/0-255.pbf")
    #expect(single.body == boldFile)
    // Partial first: its glyphs (Regular's even code points), Bold's for the rest.
    let merged = try LoopbackClient.request(port: port, "/fonts/Partial,KlokanTech%20Noto%20Sans%20Bold/0-255.pbf")
    #expect(merged.status == 200)
    let glyphs = try Self.glyphs(merged.body)
    let regular = try Self.glyphs(try SharedData.bytes("data/glyphs/\(Self.regular)/0-255.pbf"))
    let bold = try Self.glyphs(boldFile)
    #expect(Set(glyphs.keys) == Set(regular.keys).union(bold.keys))
    var fromPartial = 0
    var fromBold = 0
    for (code, glyph) in glyphs where regular[code] != bold[code] {
      if code % 2 == 0, glyph == regular[code] { fromPartial += 1 }
      if code % 2 == 1, glyph == bold[code] { fromBold += 1 }
      #expect(glyph == (code % 2 == 0 ? regular[code] : bold[code]), "\(code)")
    }
    #expect(fromPartial > 10 && fromBold > 10)
    let tag = try #require(merged.header("ETag"))
    #expect(
      try LoopbackClient.request(
        port: port, "/fonts/Partial,KlokanTech%20Noto%20Sans%20Bold/0-255.pbf", headers: ["If-None-Match": tag]
      ).status == 304)
    // Unknown fonts, ranges that are not 256-aligned, and paths out of the fonts folder are refused.
    #expect(try LoopbackClient.request(port: port, "/fonts/Nothing/0-255.pbf").status == 404)
    #expect(try LoopbackClient.request(port: port, "/fonts/Partial,Nothing/0-255.pbf").status == 404)
    #expect(try LoopbackClient.request(port: port, "/fonts/Partial/1-256.pbf").status == 400)
    #expect(
      try LoopbackClient.request(
        port: port, "/fonts/" + Array(repeating: "Partial", count: 9).joined(separator: ",") + "/0-255.pbf"
      ).status == 400)
    #expect(try LoopbackClient.request(port: port, "/fonts/Partial/0-511.pbf").status == 400)
    for target in [
      "/fonts/../0-255.pbf", "/fonts/..%2fdata/0-255.pbf", "/fonts/..%2F..%2Fetc/0-255.pbf", "/fonts/%2e%2e/0-255.pbf",
      "/fonts/Partial%2f..%2fPartial/0-255.pbf", "/fonts/./0-255.pbf", "/fonts/Partial/..%2f0-255.pbf",
      "/data/..%2fmonaco/14/8529/5974.pbf", "/data/%2e%2e.json",
    ] {
      let status = try LoopbackClient.request(port: port, target).status
      #expect(status == 404 || status == 400, "\(target): \(status)")
    }
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func pmtilesDataIsServedAndLinksFollowThePublicURL() throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let service = try Self.start(folder, publicURL: "https://tiles.example.org")
    defer { service.shutdown() }
    let tile = try LoopbackClient.request(port: service.port, "/data/archive/14/8529/5974.pbf")
    #expect(tile.status == 200 && !tile.body.isEmpty)
    #expect(tile.header("Content-Type") == "application/x-protobuf")
    #expect(tile.body.starts(with: [0x1f, 0x8b]) == (tile.header("Content-Encoding") == "gzip"))
    let json = try #require(
      try JSONParser.parse(try LoopbackClient.request(port: service.port, "/data/archive.json").body).object)
    #expect(json["format"]?.string == "pbf")
    #expect(json["tiles"]?.array?.first?.string == "https://tiles.example.org/data/archive/{z}/{x}/{y}.pbf")
  }

  /// `pbfAlias`, `sparse`, `frontPage: false` and `serveStaticMaps: false` as tileserver-gl
  /// reads them; pages and assets of things not configured are 404.
  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func aliasesSparseDataAndSwitchedOffPages() throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try TileserverGLConfigTests.write(
      """
      {
        "options": {"paths": {"root": "", "fonts": "fonts", "mbtiles": "data"}, "pbfAlias": "pbf.pict",
                    "frontPage": false, "serveStaticMaps": false},
        "data": {"monaco": {"mbtiles": "monaco.mbtiles", "sparse": true}}
      }
      """, to: folder + "/config.json")
    let service = try Self.start(folder)
    defer { service.shutdown() }
    let port = service.port
    let stored = try Self.storedTile(
      SharedData.path("data/vector/monaco-openmaptiles.mbtiles"), z: 14, x: 8529, y: 5974)
    #expect(try LoopbackClient.request(port: port, "/data/monaco/14/8529/5974.pbf.pict").body == stored)
    #expect(try LoopbackClient.request(port: port, "/data/monaco/14/8529/5974.pbf").body == stored)
    let tileJSON = try JSONParser.parse(try LoopbackClient.request(port: port, "/data/monaco.json").body)
    #expect(tileJSON["tiles"]?.array?.first?.string == "/data/monaco/{z}/{x}/{y}.pbf.pict")
    // Sparse: a tile missing inside the data is 404, so clients draw its parent.
    #expect(try LoopbackClient.request(port: port, "/data/monaco/14/0/0.pbf").status == 404)
    #expect(try LoopbackClient.request(port: port, "/").status == 404)
    #expect(try LoopbackClient.request(port: port, "/styles/roadmap/static/7.42,43.73,14/100x100.png").status == 404)
    #expect(try LoopbackClient.request(port: port, "/data/monaco/").status == 200)
    for absent in [
      "/data/other/", "/styles/other/", "/assets/other.js", "/assets/../../etc/passwd", "/assets/%2e%2e%2fetc",
      "/styles/roadmap/sprite.json", "/data/monaco/elevation/14/8529/5974",
    ] {
      let answer = try LoopbackClient.request(port: port, absent)
      #expect([400, 404].contains(answer.status), "\(absent): \(answer.status)")
    }
    let page = try LoopbackClient.request(port: port, "/playground/")
    #expect(page.status == 200 && page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
  }

  @Test func pageTextIsEscaped() {
    #expect(HTML.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    let data = HTML.data("settings", #"{"id": "</script><script>alert(1)</script>"}"#)
    #expect(!data.dropLast("</script>".count).contains("</script>"), "\(data)")
    #expect(HTML.segment("a b/c?d#e") == "a%20b%2Fc%3Fd%23e")
  }
}
