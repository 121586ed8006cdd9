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
          "terrain": {"mbtiles": "monaco-terrarium-z0-12.mbtiles", "encoding": "terrarium"}
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
    for option in ["options.formatQuality", "options.serveAllFonts"] {
      #expect(logged.filter { $0.contains("\"\(option):") }.count == 1, "\(option): \(logged)")
    }
    for used in ["options.domains", "options.pbfAlias", "styles.liberty.tilejson", "data.terrain.encoding"] {
      #expect(!logged.contains { $0.contains(used) }, "\(used): \(logged)")
    }
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
    #expect(published["sprite"]?.string == base + "/styles/liberty/sprite")
    #expect(try LoopbackClient.request(port: service.port, "/data/openmaptiles.json").status == 200)
    try Self.expectSpritesElevationAndTileJSON(port: service.port)
    // maxScaleFactor 3 is Tessera's @3x limit.
    #expect(try LoopbackClient.request(port: service.port, "/styles/liberty/14/8529/5974@4x.png").status == 400)
  }

  /// The sprite files as stored, elevation queries on the Terrarium DEM, and the TileJSON
  /// documents with the config's `tilejson` fields and `domains`.
  static func expectSpritesElevationAndTileJSON(port: UInt16) throws {
    for (name, file) in [
      ("sprite.json", "osm-liberty.json"), ("sprite.png", "osm-liberty.png"), ("sprite@2x.json", "osm-liberty@2x.json"),
      ("sprite@2x.png", "osm-liberty@2x.png"),
    ] {
      let answer = try LoopbackClient.request(port: port, "/styles/liberty/" + name)
      #expect(answer.status == 200, "\(name)")
      #expect(answer.body == (try SharedData.bytes("data/sprites/" + file)), "\(name)")
      #expect(answer.header("Content-Type") == (name.hasSuffix(".png") ? "image/png" : "application/json"))
    }
    for refused in ["/styles/liberty/sprite@3x.png", "/styles/liberty/sprite.txt", "/styles/liberty/sprite/x.json"] {
      #expect(try LoopbackClient.request(port: port, refused).status == 404, "\(refused)")
    }
    // The data's README: (7.4209, 43.7716) decodes to 1125.1 m.
    let point = try LoopbackClient.request(port: port, "/data/terrain/elevation/12/7.4209/43.7716")
    #expect(point.status == 200, "\(String(decoding: point.body, as: UTF8.self))")
    let answer = try JSONParser.parse(point.body)
    #expect(abs((answer["elevation"]?.number ?? 0) - 1125.1) < 0.5, "\(answer.serialized())")
    #expect(answer["z"]?.number == 12 && answer["x"]?.number == 2132 && answer["y"]?.number == 1492)
    // Whole numbers name a tile: its south-west corner.
    let corner = try JSONParser.parse(
      try LoopbackClient.request(port: port, "/data/terrain/elevation/12/2132/1493").body)
    #expect(abs((corner["longitude"]?.number ?? 0) - 7.382_812_5) < 1e-9, "\(corner.serialized())")
    #expect(corner["elevation"]?.number != nil)
    #expect(try LoopbackClient.request(port: port, "/data/terrain/elevation/12/9000/1493").status == 404)
    #expect(try LoopbackClient.request(port: port, "/data/terrain/elevation/12/7.4/95.0").status == 400)
    #expect(try LoopbackClient.request(port: port, "/data/openmaptiles/elevation/12/7.42/43.77").status == 400)
    // The style's `tilejson` fields are set over Tessera's; `domains` give one URL each.
    let tileJSON = try JSONParser.parse(try LoopbackClient.request(port: port, "/styles/liberty.json").body)
    #expect(tileJSON["bounds"] == [7.409205, 43.72335, 7.448637, 43.75169])
    #expect(
      tileJSON["tiles"] == [
        "http://localhost:8080/styles/liberty/{z}/{x}/{y}.png", "http://127.0.0.1:8080/styles/liberty/{z}/{x}/{y}.png",
      ])
    // The style's centre (zoom 15.5 in 512-point tiles) at 256-point zoom 16.5.
    #expect(tileJSON["center"] == [7.4246, 43.7384, 16.5])
    let data = try JSONParser.parse(try LoopbackClient.request(port: port, "/data/terrain.json").body)
    #expect(data["encoding"] == "terrarium")
    #expect(data["tiles"]?.array?.first?.string == "http://localhost:8080/data/terrain/{z}/{x}/{y}.png")
  }
}
