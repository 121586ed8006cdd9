import Foundation
import TesseraImage
import TesseraService
import TesseraTestSupport
import Testing

/// The service's indoor venues: a config's `venues` (read when the config is), shown by a
/// `POST /render` scene naming one over real HTTP on 127.0.0.1; unknown venues and levels are
/// 400 with what there is, and a request never names an IMDF path.
@Suite struct ServiceVenueTests {
  @Test func aRenderedSceneShowsAConfiguredVenue() throws {
    let folder = NSTemporaryDirectory() + "tessera-venues-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let venue = PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue.zip")
    try Data(#"{"venues": {"bazaar": "\#(venue)"}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/serve.json"))
    let configuration = try ServiceConfiguration(file: folder + "/serve.json")
    #expect(configuration.venues["bazaar"]?.levels.count == 2)
    let service = try RenderServiceTests.start {
      $0 = configuration; $0.port = 0; $0.logSink = { _ in }
    }
    defer { service.shutdown() }
    func render(_ indoor: String) throws -> LoopbackResponse {
      let scene = """
        {"size": {"width": 160, "height": 120}, "camera": {"latitude": 39.99997, "longitude": -74.00018, "zoom": 18.5},
         "indoor": \(indoor)}
        """
      return try LoopbackClient.request(port: service.port, "/render", method: "POST", body: Array(scene.utf8))
    }
    let ground = try render(#"{"venue": "bazaar"}"#)
    #expect(ground.status == 200, "\(String(decoding: ground.body, as: UTF8.self))")
    let first = try render(#"{"venue": "bazaar", "level": 1}"#)
    try? Data(ground.body).write(to: URL(fileURLWithPath: "/tmp/sv-ground.png"))
    try? Data(first.body).write(to: URL(fileURLWithPath: "/tmp/sv-first.png"))
    #expect(first.status == 200)
    // The two levels' floor plans differ.
    #expect(try PNGCodec.decode(ground.body, source: "ground") != PNGCodec.decode(first.body, source: "first"))
    for (indoor, reason) in [
      (#"{"venue": "mall"}"#, "indoor.venue must name one of this server's venues: bazaar"),
      (
        #"{"venue": "bazaar", "level": 4}"#,
        "no level with ordinal 4; the venue has levels 0 (Ground floor), 1 (First floor)"
      ),
      (#"{"venue": "bazaar", "level": 0.5}"#, "indoor.level must be a whole number"),
      (#"{"imdf": "/etc"}"#, "indoor.imdf"),
    ] {
      let refused = try render(indoor)
      let text = String(decoding: refused.body, as: UTF8.self)
      #expect(refused.status == 400 && text.contains(reason), "\(indoor): \(refused.status) \(text)")
    }
  }
}
