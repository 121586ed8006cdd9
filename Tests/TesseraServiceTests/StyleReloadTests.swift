import Foundation
import TesseraImage
import TesseraNumbers
import TesseraService
import TesseraTestSupport
import Testing

/// A style or tile file changed while the service runs is drawn as it now is after a reload
/// (SIGHUP), by every worker, including one that keeps its map between requests.
@Suite(.serialized) struct StyleReloadTests {
  /// A style of one background colour, `#rrggbb`.
  static func style(_ colour: String) -> String {
    #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "\#(colour)"}}]}"#
  }

  /// The centre pixel of the PNG an answer carries.
  static func centre(_ response: LoopbackResponse) throws -> [UInt8] {
    #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
    let image = try ImageCodec.decode(response.body, source: "answer")
    let pixel = image.pixel(x: image.width / 2, y: image.height / 2)
    return [pixel.r, pixel.g, pixel.b]
  }

  /// A one-worker service of the config at `file` (one worker: the same thread, with its kept
  /// map, answers every request).
  static func start(_ file: String) throws -> RenderService {
    try RenderServiceTests.start(workers: 1) { configuration in
      do {
        configuration = try ServiceConfiguration(file: file)
      } catch {
        Issue.record("the config was refused: \(error)")
      }
      configuration.port = 0
      configuration.logSink = { _ in }
    }
  }

  /// Reads `file` again, with the settings ``start(_:)`` gave besides the file's (the same
  /// deadline: a map is kept only for the same settings).
  static func reload(_ service: RenderService, _ file: String) throws {
    var configuration = try ServiceConfiguration(file: file)
    configuration.logSink = { _ in }
    configuration.deadline = service.configuration.deadline
    service.reload(configuration)
  }

  @Test func aTileserverGLStyleEditedAndReloadedIsDrawnAsEdited() throws {
    let folder = try TileserverGLConfigTests.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try TileserverGLConfigTests.write(Self.style("#ff0000"), to: folder + "/styles/plain.json")
    try TileserverGLConfigTests.write(
      ##"{"options": {"paths": {"styles": "styles"}}, "styles": {"plain": {"style": "plain.json"}}}"##,
      to: folder + "/config.json")
    let service = try Self.start(folder + "/config.json")
    defer { service.shutdown() }
    // A static image (a scene) and a tile (a metatile of the style's tile set).
    let targets = ["/styles/plain/static/0,0,2/32x32.png", "/styles/plain/2/1/1.png"]
    for target in targets {
      #expect(try Self.centre(LoopbackClient.request(port: service.port, target)) == [255, 0, 0], "\(target)")
    }
    try TileserverGLConfigTests.write(Self.style("#0000ff"), to: folder + "/styles/plain.json")
    try Self.reload(service, folder + "/config.json")
    for target in targets {
      #expect(try Self.centre(LoopbackClient.request(port: service.port, target)) == [0, 0, 255], "\(target)")
    }
  }

  @Test func aMapIDStyleEditedAndReloadedIsDrawnAsEdited() throws {
    let folder = try TileserverGLConfigTests.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try TileserverGLConfigTests.write(Self.style("#00ff00"), to: folder + "/ids/plain.json")
    try TileserverGLConfigTests.write(##"{"mapIDs": "ids"}"##, to: folder + "/serve.json")
    let service = try Self.start(folder + "/serve.json")
    defer { service.shutdown() }
    let target = "/maps/api/staticmap?center=0,0&zoom=2&size=32x32&format=png32&map_id=plain"
    #expect(try Self.centre(LoopbackClient.request(port: service.port, target)) == [0, 255, 0])
    try TileserverGLConfigTests.write(Self.style("#ffff00"), to: folder + "/ids/plain.json")
    try Self.reload(service, folder + "/serve.json")
    #expect(try Self.centre(LoopbackClient.request(port: service.port, target)) == [255, 255, 0])
  }

  @Test func aTileReplacedAndReloadedIsDrawnAsReplaced() throws {
    let folder = try TileserverGLConfigTests.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func writeTile(_ colour: Color) throws {
      let tile = RGBAImage(width: 256, height: 256, fill: colour)
      try FileManager.default.createDirectory(atPath: folder + "/tiles/0/0", withIntermediateDirectories: true)
      try Data(try PNGCodec.encode(tile)).write(to: URL(fileURLWithPath: folder + "/tiles/0/0/0.png"))
    }
    try writeTile(Color(r: 255, g: 0, b: 0))
    let style =
      #"{"version": 8, "sources": {"r": {"type": "raster", "url": "file://"#
      + folder + #"/tiles", "tileSize": 256, "maxzoom": 0}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#
    try TileserverGLConfigTests.write(style, to: folder + "/ids/imagery.json")
    try TileserverGLConfigTests.write(##"{"mapIDs": "ids"}"##, to: folder + "/serve.json")
    let service = try Self.start(folder + "/serve.json")
    defer { service.shutdown() }
    let target = "/maps/api/staticmap?center=0,0&zoom=0&size=32x32&format=png32&map_id=imagery"
    #expect(try Self.centre(LoopbackClient.request(port: service.port, target)) == [255, 0, 0])
    try writeTile(Color(r: 0, g: 0, b: 255))
    try Self.reload(service, folder + "/serve.json")
    #expect(try Self.centre(LoopbackClient.request(port: service.port, target)) == [0, 0, 255])
  }
}
