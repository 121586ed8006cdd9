import Foundation
import Tessera
import TesseraImage
import TesseraTestSupport
import Testing

/// Translucent extrusions show each pixel's nearest surface however the driver compiles their
/// pipelines. A depth pass followed by a colour pass keeping fragments of equal depth needs
/// both passes to compute bit-identical depths: llvmpipe without SSE (`GALLIUM_NOSSE=1`, code
/// generated as for another CPU) put 15–23 % of the visible surfaces one to sixteen 2⁻²⁴ steps
/// deeper in the colour pass, which let the map show through in stripes (monaco-basic-tilt:
/// 2.2 % of the pixels, up to 177 levels). Drawn into the layer's own target with the frame's
/// depth buffer and laid over the frame once, the two code paths agree within MapLibre's rule.
@Suite struct ExtrusionDepthTests {
  /// The `tessera` tool `swift test` built beside the tests.
  static let tool = PackagePaths.path(".build/debug/tessera")

  /// The demo city's buildings at 80 % opacity over its water and roads (no shared data).
  static let demoStyle = """
    {"version": 8, "sources": {"city": {"type": "vector", "url": "demo://city"}},
     "layers": [
      {"id": "bg", "type": "background", "paint": {"background-color": "#e8e4dc"}},
      {"id": "water", "type": "fill", "source": "city", "source-layer": "water", "paint": {"fill-color": "#a8c8e8"}},
      {"id": "roads", "type": "line", "source": "city", "source-layer": "transportation",
       "paint": {"line-color": "#ffffff", "line-width": 3}},
      {"id": "buildings", "type": "fill-extrusion", "source": "city", "source-layer": "building",
       "paint": {"fill-extrusion-color": ["interpolate", ["linear"], ["get", "render_height"], 0, "#d9d0c9", 60, "#a08d80"],
                 "fill-extrusion-height": ["get", "render_height"], "fill-extrusion-base": ["get", "render_min_height"],
                 "fill-extrusion-opacity": OPACITY}}]}
    """

  /// A folder holding the demo style at `opacity` and a scene looking at it 85° from the
  /// vertical (the tilt cap raised), the horizon and sky in view; returns the scene's path.
  static func demoScene(opacity: Double, msaa: Bool) throws -> String {
    let folder = NSTemporaryDirectory() + "tessera-extrusion-depth-\(getpid())-\(opacity)-\(msaa)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let style = demoStyle.replacingOccurrences(of: "OPACITY", with: "\(opacity)")
    try Data(style.utf8).write(to: URL(fileURLWithPath: folder + "/style.json"))
    let scene = """
      {"size": {"width": 384, "height": 256}, "maxTilt": 85, "msaa": \(msaa), "style": "style.json",
       "camera": {"latitude": 40.0, "longitude": -74.0, "zoom": 17, "bearing": 30, "viewingAngle": 85}}
      """
    try Data(scene.utf8).write(to: URL(fileURLWithPath: folder + "/scene.json"))
    return folder + "/scene.json"
  }

  /// Renders `scene` in a new process, with llvmpipe's SSE code paths or without them.
  static func render(_ scene: String, withoutSSE: Bool) throws -> RGBAImage {
    // Tests run in parallel: a name of its own for each image.
    let output = NSTemporaryDirectory() + "tessera-extrusion-depth-\(UUID().uuidString).png"
    try? FileManager.default.removeItem(atPath: output)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["render", "--scene", scene, "--gpu", "software", "--output", output]
    var environment = ProcessInfo.processInfo.environment
    environment["GALLIUM_NOSSE"] = withoutSSE ? "1" : nil
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "render \(scene) without SSE: \(withoutSSE)")
    let bytes = try #require(FileManager.default.contents(atPath: output), "no image from \(scene)")
    try? FileManager.default.removeItem(atPath: output)
    return try ImageCodec.decode(Array(bytes), source: output)
  }

  /// The two code paths' images compared under MapLibre's rule (YIQ threshold 0.1285, at most
  /// 0.015 % of the pixels differing).
  static func expectAlike(_ scene: String, _ name: String) throws {
    try #require(FileManager.default.isExecutableFile(atPath: tool), "build tessera first")
    let normal = try render(scene, withoutSSE: false)
    let withoutSSE = try render(scene, withoutSSE: true)
    let result = try PixelDiff().compare(withoutSSE, normal)
    #expect(
      result.differentFraction <= GoldenHarness.defaultAllowed,
      """
      \(name): \(result.differentPixels) of \(result.totalPixels) pixels differ without SSE \
      (largest channel difference \(result.largestChannelDifference))
      """)
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func monacoBasicTiltDrawsAlikeWithoutSSE() throws {
    try ExtrusionDepthTests.expectAlike(
      PackagePaths.path("Tests/TesseraRenderTests/Cases/monaco-basic-tilt/case.json"), "monaco-basic-tilt")
  }

  @Test(arguments: [false, true])
  func demoCityAt85DegreesDrawsAlikeWithoutSSE(msaa: Bool) throws {
    let scene = try ExtrusionDepthTests.demoScene(opacity: 0.8, msaa: msaa)
    try ExtrusionDepthTests.expectAlike(scene, "demo city at 85°\(msaa ? " with MSAA" : "")")
  }

  /// Laid over the frame with an opacity of 0.999, a translucent layer draws what the same
  /// layer drawn opaque does, up to rounding: also where buildings only partly cover a
  /// multisampled pixel and the sky is drawn after them (the samples they leave free get no
  /// share of their colour, the ones they cover their whole colour).
  @Test(arguments: [false, true])
  func aNearlyOpaqueLayerDrawsAsAnOpaqueOne(msaa: Bool) throws {
    func image(opacity: Double) throws -> RGBAImage {
      let path = try ExtrusionDepthTests.demoScene(opacity: opacity, msaa: msaa)
      let scene = try Scene.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
      return try Map(scene: scene, gpu: .surfaceless).snapshot().image
    }
    let opaque = try image(opacity: 1)
    let translucent = try image(opacity: 0.999)
    var largest = 0
    var over = 0
    for index in opaque.pixels.indices {
      let difference = abs(Int(opaque.pixels[index]) - Int(translucent.pixels[index]))
      largest = max(largest, difference)
      if difference > 3 { over += 1 }
    }
    #expect(over == 0, "MSAA \(msaa): \(over) channels differ by more than 3 levels (largest \(largest))")
  }
}
