import Foundation
import Tessera
import Testing

/// The library snippet of README.md, compiled and run exactly as written, with `import Tessera`
/// alone (this target depends on the library product only).
@Suite struct ReadmeSnippetTests {
  /// The snippet's body, between the markers (keep it identical to README.md's).
  func runSnippet() throws {
    // README snippet begins
    // The built-in normal map over the demo city, 800×600 points, tilted 60° and turned 30°.
    let camera = try Camera(latitude: 40.0, longitude: -74.0, zoom: 16.5, bearing: 30, viewingAngle: 60)
    let map = try Map(options: MapOptions(width: 800, height: 600, camera: camera), gpu: .auto)
    map.moveCamera(.zoomBy(1, atPoint: ScreenPoint(x: 200, y: 300)))
    let here = Coordinate(latitude: 40.0005, longitude: -74.0005)
    let screen = map.projection.point(for: here)  // in points; nil behind the camera
    map.add(Marker(position: here, title: "Here"))
    let snapshot = try map.snapshot()  // RGBAImage, straight alpha
    let png = try PNGCodec.encode(snapshot.image)
    print("\(png.count) bytes of PNG; the marker is at \(String(describing: screen))")

    let animation = try map.animation(to: camera, duration: 1)
    try map.render(animation, framesPerSecond: 10) { frame in _ = frame.snapshot.image }

    // Many scenes on several threads, each with its own GL context, sharing decoded tiles.
    let pool = try RenderPool(threads: 2)
    let turned = try Camera(target: camera.target, zoom: 16.5, bearing: 120, viewingAngle: 60)
    let scenes = [camera, turned].map { Scene(options: MapOptions(width: 256, height: 256, camera: $0)) }
    let images = try scenes.map { try pool.render($0).image }
    // README snippet ends
    #expect(snapshot.image.width == 800 && snapshot.image.height == 600 && png.count > 1000)
    #expect(screen != nil)
    #expect(images.count == 2 && images[0] != images[1])
  }

  @Test func theSnippetRuns() throws {
    try runSnippet()
  }

  /// README.md shows the same lines (after `import Tessera`).
  @Test func readmeShowsTheSameSnippet() throws {
    let testFile = URL(fileURLWithPath: #filePath)
    let root = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(contentsOf: testFile, encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let begin = try #require(lines.firstIndex { $0.hasSuffix("// README snippet begins") })
    let end = try #require(lines.firstIndex { $0.hasSuffix("// README snippet ends") })
    let body = lines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }
    let snippet = (["```swift", "import Tessera", ""] + body + ["```"]).joined(separator: "\n")
    #expect(readme.contains(snippet), "README.md's library snippet must read:\n\(snippet)")
  }
}
