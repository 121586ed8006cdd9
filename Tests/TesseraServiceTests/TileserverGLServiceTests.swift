import Foundation
import Synchronization
import TesseraImage
import TesseraJSON
import TesseraService
import TesseraTestSupport
import Testing

/// `tessera serve` started from a tileserver-gl `config.json` laid out as tileserver-gl's
/// documentation lays one out (a root folder with `fonts`, `sprites`, `styles` and `data`),
/// over the shared Monaco data, answering rendered tiles over real HTTP on 127.0.0.1.
@Suite struct TileserverGLServiceTests {
  /// A tileserver-gl folder: the Monaco glyphs, sprites and archives linked in, the OSM
  /// Liberty style written with tileserver-gl's `mbtiles://{id}` sources, and `config.json`.
  static func makeFolder() throws -> String {
    let folder = try TileserverGLConfigTests.folder()
    let files = FileManager.default
    try files.createSymbolicLink(atPath: folder + "/fonts", withDestinationPath: SharedData.path("data/glyphs"))
    try files.createSymbolicLink(atPath: folder + "/sprites", withDestinationPath: SharedData.path("data/sprites"))
    try files.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
    for archive in ["vector/monaco-openmaptiles.pmtiles", "terrain/monaco-terrarium-z0-12.mbtiles"] {
      try files.createSymbolicLink(
        atPath: folder + "/data/" + (archive as NSString).lastPathComponent,
        withDestinationPath: SharedData.path("data/" + archive))
    }
    var style = try #require(try JSONParser.parse(try SharedData.bytes("data/styles/monaco-liberty.json")).object)
    var sources = try #require(style["sources"]?.object)
    var vector = try #require(sources["openmaptiles"]?.object)
    var terrain = try #require(sources["terrain"]?.object)
    vector["url"] = "mbtiles://{openmaptiles}"
    terrain["url"] = "mbtiles://{terrain}"
    sources["openmaptiles"] = .object(vector)
    sources["terrain"] = .object(terrain)
    style["sources"] = .object(sources)
    style["sprite"] = "osm-liberty"
    style["glyphs"] = "{fontstack}/{range}.pbf"
    try TileserverGLConfigTests.write(JSONValue.object(style).serialized(), to: folder + "/styles/liberty.json")
    try TileserverGLConfigTests.write(
      ##"""
      {
        "options": {
          "paths": {
            "root": "",
            "fonts": "fonts",
            "sprites": "sprites",
            "styles": "styles",
            "mbtiles": "data",
            "pmtiles": "data"
          },
          "domains": ["localhost:8080", "127.0.0.1:8080"],
          "formatQuality": {"jpeg": 80, "webp": 90},
          "maxScaleFactor": 3,
          "maxSize": 2048,
          "pbfAlias": "pbf",
          "serveAllFonts": false,
          "serveAllStyles": false
        },
        "styles": {
          "liberty": {
            "style": "liberty.json",
            "tilejson": {"bounds": [7.409205, 43.72335, 7.448637, 43.75169]}
          }
        },
        "data": {
          "openmaptiles": {"pmtiles": "monaco-openmaptiles.pmtiles"},
          "terrain": {"mbtiles": "monaco-terrarium-z0-12.mbtiles"}
        }
      }
      """##, to: folder + "/config.json")
    return folder
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func aTileserverGLConfigServesItsStyleAsRenderedTiles() throws {
    let folder = try Self.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // The style's glyphs and sprite lead to the files under the fonts and sprites folders.
    let read = try ServiceConfiguration(file: folder + "/config.json")
    let style = try #require(try TileserverGLConfigTests.servedStyle(read, "liberty"))
    let glyphs = try #require(style["glyphs"]?.string).dropFirst("file://".count)
      .replacingOccurrences(of: "{fontstack}", with: "KlokanTech Noto Sans Regular")
      .replacingOccurrences(of: "{range}", with: "0-255")
    #expect(FileManager.default.fileExists(atPath: glyphs), "\(glyphs)")
    let sprite = String(try #require(style["sprite"]?.string).dropFirst("file://".count)) + ".json"
    #expect(FileManager.default.fileExists(atPath: sprite), "\(sprite)")
    let lines = Mutex<[String]>([])
    let service = try RenderServiceTests.start { configuration in
      do {
        configuration = try ServiceConfiguration(file: folder + "/config.json")
      } catch {
        Issue.record("the config was refused: \(error)")
      }
      configuration.port = 0
      configuration.logSink = { line in lines.withLock { $0.append(line) } }
    }
    defer { service.shutdown() }
    // The options without an equivalent are named once each when the service starts.
    let logged = lines.withLock { $0 }
    for option in ["options.domains", "options.formatQuality", "options.pbfAlias", "options.serveAllFonts"] {
      #expect(logged.filter { $0.contains("\"\(option):") }.count == 1, "\(option): \(logged)")
    }
    #expect(logged.filter { $0.contains("styles.liberty.tilejson") }.count == 1, "\(logged)")
    // Monaco's centre at zoom 14.
    let tile = try LoopbackClient.request(port: service.port, "/styles/liberty/14/8529/5974.png")
    #expect(tile.status == 200, "\(String(decoding: tile.body, as: UTF8.self))")
    #expect(tile.header("Content-Type") == "image/png")
    let image = try PNGCodec.decode(tile.body, source: "liberty 14/8529/5974")
    #expect(image.width == 256 && image.height == 256)
    #expect(!image.isUniform)
    // The style document is the style as written, without the server's folders, its data
    // sources and glyphs pointing at this server as a MapLibre GL JS client loads them.
    let document = try LoopbackClient.request(port: service.port, "/styles/liberty/style.json")
    #expect(document.status == 200)
    let text = String(decoding: document.body, as: UTF8.self)
    #expect(!text.contains(folder) && !text.contains("mbtiles://"))
    let published = try JSONParser.parse(document.body)
    // No publicUrl or allowed hosts: links are relative to the server, as its other links.
    let base = ""
    #expect(published["sources"]?["openmaptiles"]?["url"]?.string == base + "/data/openmaptiles.json")
    #expect(published["glyphs"]?.string == base + "/fonts/{fontstack}/{range}.pbf")
    #expect(try LoopbackClient.request(port: service.port, "/data/openmaptiles.json").status == 200)
    // maxScaleFactor 3 is Tessera's @3x limit.
    #expect(try LoopbackClient.request(port: service.port, "/styles/liberty/14/8529/5974@4x.png").status == 400)
  }
}
