import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraImage
import TesseraJSON
import TesseraService
import TesseraTestSupport
import Testing

/// Raster tiles over real HTTP on 127.0.0.1: tileserver-gl's paths, TileJSON, WMTS, caching
/// headers, one render per metatile however many of its tiles are asked for at once.
@Suite(.serialized) struct TileServiceTests {
  /// A demo-city tile at zoom 16.
  static let tile = TileID(z: 16, x: 19_265, y: 24_638)

  static func metric(_ name: String, port: UInt16) throws -> Int {
    let text = String(decoding: try LoopbackClient.request(port: port, "/metrics").body, as: UTF8.self)
    let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
    return line.flatMap { Int($0.split(separator: " ").last!) } ?? -1
  }

  @Test func tilesAreTheTilesTheRendererCuts() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let t = Self.tile
    let response = try LoopbackClient.request(port: service.port, "/styles/normal/\(t.z)/\(t.x)/\(t.y).png")
    #expect(response.status == 200 && response.header("Content-Type") == "image/png")
    #expect(response.header("Cache-Control") == "public, max-age=86400")
    #expect(response.header("Last-Modified")?.hasSuffix(" GMT") == true)
    // The same tile from the library.
    var options = MapOptions(width: 256, height: 256, camera: MapOptions.defaultCamera)
    options.tileLoadTimeout = 30
    let renderer = try TileRenderer(
      template: options, settings: TileRenderer.Settings(), device: try GLDevice(gpu: .surfaceless))
    let image = try renderer.render(t)
    #expect(response.body == (try ImageCodec.encode(image, as: .png)))
    // 304 for the entity tag; HEAD answers headers.
    let tag = try #require(response.header("ETag"))
    let again = try LoopbackClient.request(
      port: service.port, "/styles/normal/\(t.z)/\(t.x)/\(t.y).png", headers: ["If-None-Match": tag])
    #expect(again.status == 304 && again.body.isEmpty)
    // @2x tiles, 512-point tiles, other formats.
    let doubled = try LoopbackClient.request(port: service.port, "/styles/normal/\(t.z)/\(t.x)/\(t.y)@2x.png")
    #expect(try PNGCodec.decode(doubled.body, source: "@2x").width == 512)
    let large = try LoopbackClient.request(port: service.port, "/styles/normal/512/15/\(t.x / 2)/\(t.y / 2).webp")
    #expect(large.header("Content-Type") == "image/webp")
    #expect(try ImageCodec.decode(large.body, source: "512").width == 512)
    for (target, status) in [
      ("/styles/normal/23/0/0.png", 404), ("/styles/normal/3/8/0.png", 404), ("/styles/normal/3/1/1.gif", 400),
      ("/styles/normal/3/1/1@5x.png", 400), ("/styles/normal/3/1/1@4x.png", 400), ("/styles/moon/3/1/1.png", 404),
      ("/styles/normal/512/22/0/0.png", 404),
    ] {
      let answer = try LoopbackClient.request(port: service.port, target)
      #expect(answer.status == status, "\(target): \(answer.status)")
    }
  }

  @Test func theTilesOfOneMetatileAskedForAtOnceRenderIt() throws {
    let service = try RenderServiceTests.start(workers: 2, queue: 32) { $0.tileMetatile = 4 }
    defer { service.shutdown() }
    let metatile = Metatile(containing: Self.tile, size: 4)
    let rendersBefore = try Self.metric("tessera_renders_total", port: service.port)
    let statuses = Mutex<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 16) { index in
      let tile = metatile.tiles[index]
      let status =
        (try? LoopbackClient.request(port: service.port, "/styles/normal/\(tile.z)/\(tile.x)/\(tile.y).png"))?
        .status ?? -1
      statuses.withLock { $0.append(status) }
    }
    #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 }, "\(statuses.withLock { $0 })")
    #expect(try Self.metric("tessera_renders_total", port: service.port) == rendersBefore + 1)
    #expect(try Self.metric("tessera_tile_cache_total{result=\"miss\"}", port: service.port) == 1)
    #expect(try Self.metric("tessera_tile_cache_total{result=\"hit\"}", port: service.port) == 15)
  }

  @Test func tileJSONWMTSAndIndexDescribeTheTiles() throws {
    // Without a public URL links are relative: the Host header is not written back.
    let plain = try RenderServiceTests.start()
    let relative = try LoopbackClient.request(port: plain.port, "/styles/normal.json", headers: ["Host": "maps.test"])
    #expect(relative.status == 200)
    #expect(
      try JSONParser.parse(relative.body).object?["tiles"] == .array([.string("/styles/normal/{z}/{x}/{y}.png")]))
    plain.shutdown()
    let service = try RenderServiceTests.start { $0.publicURL = "http://maps.test" }
    defer { service.shutdown() }
    let answer = try LoopbackClient.request(port: service.port, "/styles/normal.json", headers: ["Host": "evil.test"])
    #expect(answer.status == 200)
    guard case .object(let tileJSON) = try JSONParser.parse(answer.body) else {
      Issue.record("not a JSON object")
      return
    }
    #expect(tileJSON["tiles"] == .array([.string("http://maps.test/styles/normal/{z}/{x}/{y}.png")]))
    #expect(tileJSON["maxzoom"] == .number(22) && tileJSON["tilejson"] == .string("2.0.0"))
    let large = try JSONParser.parse(try LoopbackClient.request(port: service.port, "/styles/512/normal.json").body)
    #expect(large.object?["maxzoom"] == .number(21))
    guard
      case .array(let index) = try JSONParser.parse(try LoopbackClient.request(port: service.port, "/index.json").body)
    else {
      Issue.record("index.json is not an array")
      return
    }
    #expect(index.count == ServiceConfiguration().styles.count)
    let wmts = String(
      decoding: try LoopbackClient.request(
        port: service.port, "/styles/normal/wmts.xml", headers: ["Host": "maps.test"]
      )
      .body, as: UTF8.self)
    #expect(wmts.contains("<TileMatrixSet>GoogleMapsCompatible</TileMatrixSet>"))
    #expect(wmts.contains("template=\"http://maps.test/styles/normal/{TileMatrix}/{TileCol}/{TileRow}.png\""))
    #expect(wmts.contains("<MatrixWidth>4194304</MatrixWidth>"))
    #expect(try LoopbackClient.request(port: service.port, "/styles/moon.json").status == 404)
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func tilesOutsideTheDataAre204OrSparse404() throws {
    for sparse in [false, true] {
      let service = try RenderServiceTests.start { configuration in
        configuration.styles["monaco"] = .file(
          path: SharedData.path("data/styles/monaco-basic.json"), dataRoot: SharedData.path("data"))
        configuration.sparseTiles = sparse
      }
      defer { service.shutdown() }
      // New York at zoom 10: far from Monaco's data.
      let outside = try LoopbackClient.request(port: service.port, "/styles/monaco/10/301/385.png")
      #expect(outside.status == (sparse ? 404 : 204), "sparse \(sparse): \(outside.status)")
      // Monaco at zoom 14, and overzoomed at 19 (the data stops at 14).
      let inside = try LoopbackClient.request(port: service.port, "/styles/monaco/14/8529/5974.png")
      #expect(inside.status == 200)
      let deep = try LoopbackClient.request(port: service.port, "/styles/monaco/19/272956/191169.png")
      #expect(deep.status == 200)
      let deepImage = try PNGCodec.decode(deep.body, source: "z19")
      #expect(!deepImage.isUniform)
      let tileJSON = try JSONParser.parse(try LoopbackClient.request(port: service.port, "/styles/monaco.json").body)
      #expect(tileJSON.object?["attribution"]?.string?.contains("OpenStreetMap") == true)
    }
  }
}
