import Foundation
import TesseraData
import TesseraGeo
import TesseraTestSupport
import Testing

/// The HTTP source against a real server on 127.0.0.1 (Support/tile_server.py).
@Suite(.serialized) struct HTTPSourceTests {
  static let tile = TileID(z: 3, x: 2, y: 5)

  func options(cache: String? = nil) -> HTTPTileSource.Options {
    var options = HTTPTileSource.Options()
    options.cacheDirectory = cache
    options.timeout = 1
    options.connectTimeout = 1
    options.retries = 1
    options.retryDelay = 0.05
    return options
  }

  func body(_ fetch: TileFetch) -> String? {
    if case .data(let bytes) = fetch { return String(decoding: bytes, as: UTF8.self) }
    return nil
  }

  @Test func fetchesTilesAndExpandsTemplates() throws {
    let server = try TileServer()
    let source = try HTTPTileSource(template: server.template("ok"), options: options())
    #expect(body(try source.fetch(HTTPSourceTests.tile)) == "tile /ok/3/2/5.bin")
    let tms = try HTTPTileSource(template: "http://127.0.0.1:\(server.port)/ok/{z}/{x}/{-y}.bin", options: options())
    #expect(body(try tms.fetch(HTTPSourceTests.tile)) == "tile /ok/3/2/2.bin")
    let quadkey = try HTTPTileSource(template: "http://127.0.0.1:\(server.port)/ok/{quadkey}.bin", options: options())
    #expect(quadkey.url(for: HTTPSourceTests.tile).hasSuffix("/ok/212.bin"))
  }

  @Test func missingAndEmptyMeanNoTile() throws {
    let server = try TileServer()
    for behaviour in ["missing", "empty"] {
      let source = try HTTPTileSource(template: server.template(behaviour), options: options())
      guard case .noTile = try source.fetch(HTTPSourceTests.tile) else {
        Issue.record("\(behaviour): expected no tile")
        continue
      }
    }
  }

  @Test func serverErrorsAreRetriedThenReported() throws {
    let server = try TileServer()
    let source = try HTTPTileSource(template: server.template("error"), options: options())
    do {
      _ = try source.fetch(HTTPSourceTests.tile)
      Issue.record("a 500 became a tile")
    } catch {
      #expect(error.description.contains("HTTP 500"))
      #expect(error.description.contains("tile 3/2/5"))
    }
    #expect(try server.requestCounts()["/error/3/2/5.bin"] == 2)
    let flaky = try HTTPTileSource(template: server.template("flaky"), options: options())
    #expect(body(try flaky.fetch(HTTPSourceTests.tile)) == "tile /flaky/3/2/5.bin")
  }

  @Test func slowResponsesTimeOut() throws {
    let server = try TileServer()
    var slow = options()
    slow.retries = 0
    let source = try HTTPTileSource(template: server.template("slow"), options: slow)
    let start = Date()
    do {
      _ = try source.fetch(HTTPSourceTests.tile)
      Issue.record("a slow response arrived")
    } catch {
      #expect(
        error.description.lowercased().contains("timed out") || error.description.lowercased().contains("timeout"),
        "\(error)")
    }
    #expect(Date().timeIntervalSince(start) < 2.5)
  }

  @Test func truncatedBodiesAreErrors() throws {
    let server = try TileServer()
    let source = try HTTPTileSource(template: server.template("truncated"), options: options())
    #expect(throws: TileSourceError.self) { try source.fetch(HTTPSourceTests.tile) }
  }

  @Test func diskCacheServesFreshTilesAfterARestartWithoutTheServer() throws {
    let cache = NSTemporaryDirectory() + "tessera-http-\(UUID().uuidString)"
    var server = try TileServer()
    let template = server.template("cached")
    let first = try HTTPTileSource(template: template, options: options(cache: cache))
    #expect(body(try first.fetch(HTTPSourceTests.tile)) == "tile /cached/3/2/5.bin")
    server.stop()
    // A new source (as after a restart) on the same cache: no server needed.
    let second = try HTTPTileSource(template: template, options: options(cache: cache))
    #expect(body(try second.fetch(HTTPSourceTests.tile)) == "tile /cached/3/2/5.bin")
    server = try TileServer()
    _ = server
  }

  @Test func staleEntriesAreRevalidatedWithETags() throws {
    let cache = NSTemporaryDirectory() + "tessera-http-\(UUID().uuidString)"
    let server = try TileServer()
    let source = try HTTPTileSource(template: server.template("etag"), options: options(cache: cache))
    #expect(body(try source.fetch(HTTPSourceTests.tile)) == "tile /etag/3/2/5.bin")
    #expect(body(try source.fetch(HTTPSourceTests.tile)) == "tile /etag/3/2/5.bin")
    #expect(try server.requestCounts()["/etag/3/2/5.bin"] == 2, "the second fetch asked (no-cache) and got 304")
    let noStore = try HTTPTileSource(template: server.template("nostore"), options: options(cache: cache))
    _ = try noStore.fetch(HTTPSourceTests.tile)
    _ = try noStore.fetch(HTTPSourceTests.tile)
    #expect(try server.requestCounts()["/nostore/3/2/5.bin"] == 2)
  }

  @Test func diskCacheStaysWithinItsBudget() throws {
    let cache = NSTemporaryDirectory() + "tessera-http-\(UUID().uuidString)"
    let server = try TileServer()
    var small = options(cache: cache)
    small.cacheMaxBytes = 100
    let source = try HTTPTileSource(template: server.template("cached"), options: small)
    for x in 0..<8 { _ = try source.fetch(TileID(z: 3, x: x, y: 1)) }
    let files = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".body") }
    let total = try files.reduce(0) { sum, file in
      sum + ((try FileManager.default.attributesOfItem(atPath: "\(cache)/\(file)")[.size] as? NSNumber)?.intValue ?? 0)
    }
    #expect(total <= 100 && files.count < 8 && !files.isEmpty)
  }

  @Test func parallelFetchesThroughTheLoader() throws {
    let server = try TileServer()
    let source = try HTTPTileSource(template: server.template("ok"), options: options())
    let tiles = (0..<8).flatMap { x in (0..<4).map { TileID(z: 3, x: x, y: $0) } }
    let loader = TileLoader(workerCount: 8)
    let results = loader.load(tiles, from: BoundSource(source, kind: .raster))
    #expect(results.count == 32)
    // Bodies are text, not images: every tile fails to decode, each reported by name.
    #expect(
      results.values.allSatisfy {
        if case .failed(let error) = $0 { return error.description.contains("cannot decode") } else { return false }
      })
  }

  @Test func badTemplatesAreRefused() {
    #expect(throws: TileSourceError.self) { try HTTPTileSource(template: "ftp://x/{z}/{x}/{y}") }
    #expect(throws: TileSourceError.self) { try HTTPTileSource(template: "http://x/tiles.png") }
  }
}
