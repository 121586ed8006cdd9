import Dispatch
import Foundation
import Tessera
import TesseraData
import TesseraGeo
import TesseraTestSupport
import Testing

/// A tile server that accepts connections and never answers costs a bounded time: the circuit
/// breaker stops asking it, and a frame waits for its tiles no longer than its deadline.
@Suite(.serialized) struct DeadServerTests {
  func options() -> HTTPTileSource.Options {
    var options = HTTPTileSource.Options()
    options.timeout = 0.5
    options.connectTimeout = 0.5
    options.retries = 2
    options.retryDelay = 0.01
    return options
  }

  @Test func theBreakerStopsAskingAHostThatDoesNotAnswer() throws {
    let server = try TileServer()
    let source = try HTTPTileSource(template: server.template("hang"), options: options())
    let start = DispatchTime.now()
    // Three silences in a row (the first tile's attempts) open the breaker.
    #expect(throws: TileSourceError.self) { try source.fetch(TileID(z: 3, x: 1, y: 1)) }
    let second = DispatchTime.now()
    do {
      _ = try source.fetch(TileID(z: 3, x: 2, y: 1))
      Issue.record("a hanging server gave a tile")
    } catch {
      #expect(error.description.contains("is not answering"), "\(error)")
    }
    let end = DispatchTime.now()
    #expect(Double(second.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 < 3)
    #expect(Double(end.uptimeNanoseconds - second.uptimeNanoseconds) / 1e9 < 0.1, "refused at once")
    #expect(try server.requestCounts().values.reduce(0, +) == 3)
    // A host that answers resets it.
    let breaker = HTTPCircuitBreaker(threshold: 2, cooldown: 60)
    breaker.recordSilence(from: "h")
    breaker.recordAnswer(from: "h")
    breaker.recordSilence(from: "h")
    #expect(breaker.refusal(for: "h") == nil)
    breaker.recordSilence(from: "h")
    #expect(breaker.refusal(for: "h") != nil)
    #expect(breaker.refusal(for: "h", now: Date().timeIntervalSince1970 + 61) == nil)
  }

  /// A style over a dead raster server renders, with warnings, within the frame's deadline
  /// (no ancestor asked one after another).
  @Test func aRenderAgainstADeadServerEndsWithinItsDeadline() throws {
    let server = try TileServer()
    let style = try Style.parse(
      Array(
        #"{"version": 8, "sources": {"r": {"type": "raster", "tileSize": 256, "tiles": ["http://127.0.0.1:\#(server.port)/hang/{z}/{x}/{y}.png"]}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}}, {"id": "r", "type": "raster", "source": "r"}]}"#
          .utf8))
    var mapOptions = MapOptions(
      width: 256, height: 256, camera: try Camera(latitude: 43.7, longitude: 7.4, zoom: 12), mapType: .none)
    mapOptions.tileLoadTimeout = 2
    mapOptions.http = options()
    let map = try Map(options: mapOptions, gpu: .surfaceless)
    try map.setStyle(style, name: "dead", dataRoot: "/")
    let start = DispatchTime.now()
    let snapshot = try map.snapshot()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    #expect(seconds < 4, "took \(seconds) s")
    #expect(!snapshot.warnings.isEmpty)
    #expect(snapshot.warnings.contains { $0.contains("did not load within 2") || $0.contains("not answering") })
    #expect(snapshot.image.pixel(x: 128, y: 128) == (255, 255, 255, 255))
  }

  @Test func hostileTileJSONFromAServerIsReadWithAProblem() throws {
    let server = try TileServer()
    let locator = TileSourceLocator(httpOptions: options())
    let source = try locator.open("http://127.0.0.1:\(server.port)/tilejson/hostile.json")
    #expect(source.metadata.maxZoom == 22)
    #expect(source.metadata.problems.contains { $0.contains("maxzoom 1e+300") })
  }
}
