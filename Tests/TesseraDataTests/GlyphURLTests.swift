import Foundation
import TesseraData
import TesseraTestSupport
import Testing

/// Glyph PBFs from files and over HTTP (Support/tile_server.py on 127.0.0.1).
@Suite struct GlyphURLTests {
  @Test func rangesComeOverHTTPWithTheFontStackEncoded() throws {
    let server = try TileServer()
    defer { server.stop() }
    let template = GlyphURLTemplate(template: "http://127.0.0.1:\(server.port)/glyphs/{fontstack}/{range}.pbf")
    let bytes = try #require(try template.load(fontStack: "Open Sans Regular,Arial Unicode MS Regular", rangeStart: 0))
    let glyphs = try GlyphRangeDecoder.decode(bytes, source: "0-255.pbf")
    #expect(glyphs[65]?.width == 8 && glyphs[65]?.advance == 10)
    // A missing range is no range (a warning later), not an error.
    #expect(try template.load(fontStack: "Open Sans Regular", rangeStart: 256) == nil)
    let counts = try server.requestCounts()
    // Percent-encoded as MapLibre encodes it (encodeURIComponent: commas too).
    #expect(counts["/glyphs/Open%20Sans%20Regular%2CArial%20Unicode%20MS%20Regular/0-255.pbf"] == 1, "\(counts)")
  }

  @Test func filesAreReadFromTheTemplatePath() throws {
    let folder = NSTemporaryDirectory() + "tessera-glyph-files-\(getpid())/Noto Sans Regular"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
    _ = FileManager.default.createFile(atPath: folder + "/0-255.pbf", contents: Data([1, 2, 3]))
    let template = GlyphURLTemplate(
      template: (folder as NSString).deletingLastPathComponent + "/{fontstack}/{range}.pbf")
    #expect(try template.load(fontStack: "Noto Sans Regular", rangeStart: 0) == [1, 2, 3])
    #expect(try template.load(fontStack: "Noto Sans Regular", rangeStart: 512) == nil)
  }

  @Test func serverFailuresAreErrorsNamingTheURL() throws {
    let server = try TileServer()
    defer { server.stop() }
    var options = HTTPTileSource.Options()
    options.retries = 0
    let template = GlyphURLTemplate(
      template: "http://127.0.0.1:\(server.port)/error/{fontstack}/{range}.pbf", http: options)
    do {
      _ = try template.load(fontStack: "A", rangeStart: 0)
      Issue.record("no error")
    } catch {
      #expect(error.source.contains("/error/A/0-255.pbf") && error.reason.contains("500"))
    }
  }
}
