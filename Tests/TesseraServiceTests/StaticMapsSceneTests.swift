import Foundation
import Tessera
import TesseraImage
import TesseraService
import TesseraTestSupport
import Testing

/// A Static Maps request is read into the `Scene` a library user would build in code: the same
/// options, markers, icons, paths and fitted camera, so both draw the same bytes.
@Suite(.serialized) struct StaticMapsSceneTests {
  static let square = RGBAImage(width: 12, height: 12, fill: Color(r: 0, g: 200, b: 0))

  @Test func aRequestAndTheSceneBuiltInCodeDrawTheSameBytes() throws {
    let folder = NSTemporaryDirectory() + "tessera-icons-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(try PNGCodec.encode(Self.square)).write(to: URL(fileURLWithPath: folder + "/square.png"))
    let service = try RenderServiceTests.start { $0.iconFolder = folder }
    defer { service.shutdown() }
    // No center or zoom: the camera is fitted to the markers, the path and `visible`.
    let target =
      "/maps/api/staticmap?size=200x150&scale=2&format=png32&visible=40.004,-74.005"
      + "&markers=size:mid%7Clabel:a%7Ccolor:0x00ff00%7C40,-74%7C40.001,-74.002"
      + "&markers=color:0x0000ff%7C39.999,-73.999"
      + "&markers=icon:square.png%7Canchor:topleft%7C40.002,-73.997"
      + "&path=color:0xff0000ff%7Cweight:4%7C39.998,-74.003%7C40.002,-73.998"
    let response = try LoopbackClient.request(port: service.port, target)
    #expect(response.status == 200)
    #expect(response.header("X-Staticmap-API-Warning") == nil)

    // The same map built in code.
    var scene = Scene(options: MapOptions(width: 200, height: 150, scale: 2))
    let pin = MarkerIcon.staticMapsPin(color: Color(r: 0, g: 255, b: 0), size: "mid", label: "A")
    let square = Marker(
      position: Coordinate(latitude: 40.002, longitude: -73.997), icon: MarkerIcon(image: Self.square))
    square.groundAnchor = MarkerAnchor(x: 0, y: 0)
    scene.markers = [
      Marker(position: Coordinate(latitude: 40, longitude: -74), icon: pin),
      Marker(position: Coordinate(latitude: 40.001, longitude: -74.002), icon: pin),
      Marker(
        position: Coordinate(latitude: 39.999, longitude: -73.999),
        icon: .markerImage(color: Color(r: 0, g: 0, b: 255))),
      square,
    ]
    let path = Polyline(path: [
      Coordinate(latitude: 39.998, longitude: -74.003), Coordinate(latitude: 40.002, longitude: -73.998),
    ])
    path.strokeColor = Color(r: 255, g: 0, b: 0)
    path.strokeWidth = 4
    scene.overlays = [path]
    try scene.fitCamera(showing: [Coordinate(latitude: 40.004, longitude: -74.005)])
    let image = try Map(scene: scene, gpu: .surfaceless).snapshot().image
    let expected = try ImageCodec.encode(image, as: .png)
    #expect(response.body == expected, "served \(response.body.count) bytes, built in code \(expected.count)")
  }

  /// A custom icon's bytes are decoded by the render, which refuses a picture that does not
  /// decode as the scene reader did, naming the first marker showing it.
  @Test func anIconThatDoesNotDecodeIsRefusedByTheRender() throws {
    let folder = NSTemporaryDirectory() + "tessera-icons-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A PNG's signature (the icon folder takes it), then no picture.
    let broken: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("not a picture".utf8)
    try Data(broken).write(to: URL(fileURLWithPath: folder + "/broken.png"))
    let service = try RenderServiceTests.start { $0.iconFolder = folder }
    defer { service.shutdown() }
    let response = try LoopbackClient.request(
      port: service.port,
      "/maps/api/staticmap?center=0,0&zoom=5&size=64x64&markers=0,1&markers=icon:broken.png%7C0,0%7C1,1")
    #expect(response.status == 400)
    #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("request: markers[1].icon: "))
  }
}
